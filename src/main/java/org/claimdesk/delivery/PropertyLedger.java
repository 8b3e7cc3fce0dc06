package org.claimdesk.delivery;

import java.util.Locale;
import java.util.Optional;
import java.util.function.IntPredicate;
import org.claimdesk.domain.Sha256;

/**
 * What the simulated state's property records say about a state property id, as a pure function of
 * the jurisdiction and the id, so that the state, the tests and the demo generator agree without a
 * shared database.
 *
 * <p>Only 9-digit property ids have records: 7- and 8-digit ids predate the state's current numbering
 * and carry none, so a claim for one is never refused by these two rules. For a 9-digit id, let
 * {@code d} be SHA-256 of the UTF-8 text {@code JURISDICTION + ":" + ID} (e.g. {@code "CA:123456789"})
 * and {@code bucket} the unsigned big-endian value of its first four bytes modulo 100:
 * <ul>
 *   <li>bucket 0 (one id in a hundred): the property was already paid to another claimant;
 *   <li>buckets 1 to 5 (five in a hundred): the state holds an owner record whose tax id ends in the
 *       four digits {@code 1 + (unsigned big-endian value of bytes 4 and 5) mod 9999}, zero-padded;
 *   <li>any other bucket: no record, nothing to check.
 * </ul>
 * An ordinary claim therefore passes unless its property really is paid or its tax id really differs
 * from the owner record.
 */
public final class PropertyLedger {
    private static final int PAID_BUCKETS = 1;
    private static final int OWNER_RECORD_BUCKETS = 5;

    private PropertyLedger() {
    }

    /** True when the state already paid this property to another claimant. */
    public static boolean paid(String jurisdiction, String statePropertyId) {
        return recorded(statePropertyId) && bucket(jurisdiction, statePropertyId) < PAID_BUCKETS;
    }

    /**
     * The last four digits of the tax id on the state's owner record of this property, when it holds
     * one (a paid property has none: it is refused as paid first).
     */
    public static Optional<String> ownerTaxIdLast4(String jurisdiction, String statePropertyId) {
        if (!recorded(statePropertyId)) {
            return Optional.empty();
        }
        int bucket = bucket(jurisdiction, statePropertyId);
        if (bucket < PAID_BUCKETS || bucket >= PAID_BUCKETS + OWNER_RECORD_BUCKETS) {
            return Optional.empty();
        }
        byte[] d = digest(jurisdiction, statePropertyId);
        int value = ((d[4] & 0xff) << 8) | (d[5] & 0xff);
        return Optional.of(String.format(Locale.ROOT, "%04d", 1 + value % 9999));
    }

    /** A 9-digit property id with no record: neither paid nor owner-recorded. The same inputs give the same id. */
    public static String openPropertyId(String jurisdiction, long n) {
        return find(jurisdiction, n, b -> b >= PAID_BUCKETS + OWNER_RECORD_BUCKETS);
    }

    /** A 9-digit property id the state already paid to another claimant (422 already_paid). */
    public static String paidPropertyId(String jurisdiction, long n) {
        return find(jurisdiction, n, b -> b < PAID_BUCKETS);
    }

    /**
     * A 9-digit property id the state holds an owner record for: a claim passes with a tax id ending in
     * {@link #ownerTaxIdLast4} and is refused 422 identity_mismatch with any other.
     */
    public static String ownerRecordedPropertyId(String jurisdiction, long n) {
        return find(jurisdiction, n, b -> b >= PAID_BUCKETS && b < PAID_BUCKETS + OWNER_RECORD_BUCKETS);
    }

    /** Four digits that differ from {@code last4} in every position, for a claim that must not match a record. */
    public static String otherTaxIdLast4(String last4) {
        StringBuilder other = new StringBuilder(4);
        for (int i = 0; i < 4; i++) {
            char c = i < last4.length() ? last4.charAt(i) : '0';
            other.append(Character.isDigit(c) ? (char) ('0' + (c - '0' + 5) % 10) : '5');
        }
        return other.toString();
    }

    private static boolean recorded(String statePropertyId) {
        return statePropertyId != null && statePropertyId.length() == 9 && statePropertyId.chars().allMatch(
                c -> c >= '0' && c <= '9');
    }

    private static String find(String jurisdiction, long n, IntPredicate bucket) {
        long start = Math.floorMod(n * 2_654_435_761L + 12_345L, 900_000_000L);
        for (long k = 0; k < 900_000_000L; k++) {
            String id = Long.toString(100_000_000L + (start + k) % 900_000_000L);
            if (bucket.test(bucket(jurisdiction, id))) {
                return id;
            }
        }
        throw new IllegalStateException("no property id fits");
    }

    private static int bucket(String jurisdiction, String statePropertyId) {
        byte[] d = digest(jurisdiction, statePropertyId);
        long value = ((d[0] & 0xffL) << 24) | ((d[1] & 0xffL) << 16) | ((d[2] & 0xffL) << 8) | (d[3] & 0xffL);
        return (int) (value % 100);
    }

    private static byte[] digest(String jurisdiction, String statePropertyId) {
        return Sha256.of(jurisdiction + ":" + statePropertyId);
    }
}
