package org.claimdesk.delivery;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.claimdesk.domain.PropertyType;

/**
 * The simulated state's holder registry: the banks, employers, insurers and utilities that file
 * unclaimed-property reports, with the jurisdictions each reports to. It is read once from
 * {@value #RESOURCE} and is the one list both the simulated state (a claim whose holder id is not
 * registered for its jurisdiction is refused 422 invalid_claim) and the demo generator draw from.
 */
public final class HolderRegistry {
    static final String RESOURCE = "holder-registry.csv";
    /** The simulated state's holder id format: "HLD-" and six digits. */
    public static final Pattern HOLDER_ID = Pattern.compile("HLD-\\d{6}");
    private static final String HEADER = "holder_id,holder_name,property_type,jurisdictions";
    private static final HolderRegistry STANDARD = load();

    /**
     * One registered holder.
     *
     * @param propertyType the NAUPA code of the property it mostly reports
     * @param jurisdictions the jurisdictions it reports to
     */
    public record Holder(String id, String name, PropertyType propertyType, Set<String> jurisdictions) {
        public Holder {
            jurisdictions = Collections.unmodifiableSet(new TreeSet<>(jurisdictions));
        }

        public boolean reportsTo(String jurisdiction) {
            return jurisdiction != null && jurisdictions.contains(jurisdiction);
        }
    }

    private final Map<String, Holder> byId;
    /** {@link #holdersFor} per jurisdiction, worked out once each (the demo asks for every claim). */
    private final Map<String, List<Holder>> byJurisdiction = new ConcurrentHashMap<>();

    HolderRegistry(List<Holder> holders) {
        Map<String, Holder> map = new LinkedHashMap<>();
        for (Holder h : holders) {
            if (!HOLDER_ID.matcher(h.id()).matches()) {
                throw new IllegalArgumentException("holder id " + h.id() + " is not of the form HLD-123456");
            }
            if (map.put(h.id(), h) != null) {
                throw new IllegalArgumentException("holder id " + h.id() + " is registered twice");
            }
        }
        this.byId = Collections.unmodifiableMap(map);
    }

    /** The registry shipped with ClaimDesk, read once. */
    public static HolderRegistry standard() {
        return STANDARD;
    }

    /** Every registered holder, in the file's order. */
    public List<Holder> holders() {
        return List.copyOf(byId.values());
    }

    /** The holders that report to {@code jurisdiction}, in the file's order (empty for an unknown one). */
    public List<Holder> holdersFor(String jurisdiction) {
        if (jurisdiction == null) {
            return List.of();
        }
        return byJurisdiction.computeIfAbsent(jurisdiction,
                j -> byId.values().stream().filter(h -> h.reportsTo(j)).toList());
    }

    public Optional<Holder> holder(String holderId) {
        return Optional.ofNullable(holderId == null ? null : byId.get(holderId));
    }

    /** True when {@code holderId} is registered and reports to {@code jurisdiction}. */
    public boolean registered(String holderId, String jurisdiction) {
        return holder(holderId).map(h -> h.reportsTo(jurisdiction)).orElse(false);
    }

    /**
     * A well-formed holder id that no holder is registered under, for a claim the state must refuse
     * (422 invalid_claim). The same {@code n} gives the same id.
     */
    public String unregisteredHolderId(long n) {
        long start = Math.floorMod(n * 2_654_435_761L, 900_000L);
        for (long k = 0; k < 900_000L; k++) {
            String id = String.format(Locale.ROOT, "HLD-%06d", 100_000 + (start + k) % 900_000);
            if (!byId.containsKey(id)) {
                return id;
            }
        }
        throw new IllegalStateException("every holder id is registered");
    }

    private static HolderRegistry load() {
        try (InputStream in = HolderRegistry.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the holder registry " + RESOURCE + " is missing from the build");
            }
            return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the holder registry " + RESOURCE, e);
        }
    }

    /** Lines of the registry file: comments (#), the header, then one holder a line. */
    static HolderRegistry parse(List<String> lines) {
        List<Holder> holders = new ArrayList<>();
        boolean header = false;
        int number = 0;
        for (String raw : lines) {
            number++;
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (!header) {
                if (!line.equals(HEADER)) {
                    throw new IllegalArgumentException("holder registry line " + number + ": expected the header " + HEADER);
                }
                header = true;
                continue;
            }
            String[] cells = line.split(",", -1);
            if (cells.length != 4) {
                throw new IllegalArgumentException("holder registry line " + number + ": expected 4 columns, got "
                        + cells.length);
            }
            Set<String> jurisdictions = new TreeSet<>();
            for (String code : cells[3].strip().split("\\s+")) {
                if (code.equals("ALL")) {
                    jurisdictions.addAll(StateRules.JURISDICTIONS);
                } else if (StateRules.JURISDICTIONS.contains(code)) {
                    jurisdictions.add(code);
                } else {
                    throw new IllegalArgumentException("holder registry line " + number + ": unknown jurisdiction "
                            + code);
                }
            }
            PropertyType type;
            try {
                type = PropertyType.valueOf(cells[2].strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("holder registry line " + number + ": unknown property type "
                        + cells[2].strip(), e);
            }
            holders.add(new Holder(cells[0].strip(), cells[1].strip(), type, jurisdictions));
        }
        return new HolderRegistry(holders);
    }
}
