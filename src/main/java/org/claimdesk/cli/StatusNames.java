package org.claimdesk.cli;

import java.util.Arrays;
import java.util.Iterator;
import org.claimdesk.domain.ClaimStatus;

/** The claim statuses by name, as the options that take one list them in their help. */
final class StatusNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
        return Arrays.stream(ClaimStatus.values()).map(Enum::name).iterator();
    }
}
