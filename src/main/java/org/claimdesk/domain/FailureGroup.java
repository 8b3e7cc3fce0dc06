package org.claimdesk.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Failed outbox rows that share one {@link ErrorSignature}.
 *
 * @param sampleError the most recent full error text of the group
 * @param firstSeen when the oldest row of the group failed (last changed)
 * @param lastSeen when the newest row of the group failed (last changed)
 */
public record FailureGroup(String signature, int count, Instant firstSeen, Instant lastSeen, String sampleError) {

    /** Largest group first; among equal ones the most recently seen, then by signature. */
    public static final Comparator<FailureGroup> LARGEST_FIRST = Comparator.comparingInt(FailureGroup::count).reversed()
            .thenComparing(FailureGroup::lastSeen, Comparator.reverseOrder())
            .thenComparing(FailureGroup::signature);

    /** {@code count} failed rows whose last error is exactly {@code errorText}, failed between the two instants. */
    public static FailureGroup of(String errorText, int count, Instant firstSeen, Instant lastSeen) {
        return new FailureGroup(ErrorSignature.of(errorText), count, firstSeen, lastSeen, errorText);
    }

    /** The group as staff read it: its newest message's signature, the case of its letters kept. */
    public String shown() {
        return sampleError == null ? signature : ErrorSignature.shown(sampleError);
    }

    /** This group and {@code other} (same signature) as one: counts added, the wider span, the newer sample. */
    public FailureGroup merge(FailureGroup other) {
        if (!signature.equals(other.signature)) {
            throw new IllegalArgumentException("cannot merge the groups '" + signature + "' and '" + other.signature + "'");
        }
        boolean otherNewer = other.lastSeen.isAfter(lastSeen);
        return new FailureGroup(signature, count + other.count,
                other.firstSeen.isBefore(firstSeen) ? other.firstSeen : firstSeen,
                otherNewer ? other.lastSeen : lastSeen,
                otherNewer ? other.sampleError : sampleError);
    }

    /** Groups by signature (merging those that share one), {@link #LARGEST_FIRST}. */
    public static List<FailureGroup> bySignature(Iterable<FailureGroup> parts) {
        Map<String, FailureGroup> groups = new LinkedHashMap<>();
        for (FailureGroup part : parts) {
            groups.merge(part.signature(), part, FailureGroup::merge);
        }
        List<FailureGroup> sorted = new ArrayList<>(groups.values());
        sorted.sort(LARGEST_FIRST);
        return sorted;
    }
}
