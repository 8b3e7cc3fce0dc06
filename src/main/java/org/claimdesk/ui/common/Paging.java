package org.claimdesk.ui.common;

/**
 * One page over a result of {@code total} rows: where it starts, how big pages are, and the words for it. Until
 * the result is first counted its total is {@link #NOT_COUNTED}: the page's rows may be on screen already.
 */
public record Paging(int offset, int pageSize, int total) {
    /** The total of a result not counted yet. */
    public static final int NOT_COUNTED = -1;

    public Paging {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be positive");
        }
        offset = Math.max(0, offset);
    }

    /** The first page of a result not counted yet. */
    public static Paging first(int pageSize) {
        return new Paging(0, pageSize, NOT_COUNTED);
    }

    public boolean counted() {
        return total != NOT_COUNTED;
    }

    public Paging withTotal(int newTotal) {
        int lastStart = lastOffset(newTotal, pageSize);
        return new Paging(Math.min(offset, lastStart), pageSize, newTotal);
    }

    public Paging next() {
        return hasNext() ? new Paging(offset + pageSize, pageSize, total) : this;
    }

    public Paging previous() {
        return new Paging(Math.max(0, offset - pageSize), pageSize, total);
    }

    public Paging firstPage() {
        return new Paging(0, pageSize, total);
    }

    public Paging lastPage() {
        return new Paging(lastOffset(total, pageSize), pageSize, total);
    }

    public boolean hasNext() {
        return offset + pageSize < total;
    }

    public boolean hasPrevious() {
        return offset > 0;
    }

    /** "1–200 of 100,000", "no rows", or "counting…" before the result is first counted. */
    public String describe() {
        if (!counted()) {
            return "counting…";
        }
        if (total <= 0) {
            return "no rows";
        }
        int end = Math.min(total, offset + pageSize);
        return Formats.count(offset + 1L) + "–" + Formats.count(end) + " of " + Formats.count(total);
    }

    private static int lastOffset(int total, int pageSize) {
        return total <= 0 ? 0 : ((total - 1) / pageSize) * pageSize;
    }
}
