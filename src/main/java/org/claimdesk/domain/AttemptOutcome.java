package org.claimdesk.domain;

/** How one delivery attempt ended, from the worker's point of view. */
public enum AttemptOutcome {
    /** Accepted (201), replay of an accepted key (200) or duplicate of an accepted claim (409). */
    DELIVERED,
    /** 429, 5xx, timeouts, dropped connections: try again later. */
    TRANSIENT,
    /** 400/422 or a malformed row: retrying cannot help. */
    PERMANENT,
    /** 401/403 or nothing reachable: every row would fail the same way. */
    SYSTEMIC
}
