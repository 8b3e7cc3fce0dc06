package org.claimdesk.domain;

/** Masking of SSNs, ITINs and EINs: only the last four digits are ever shown. */
public final class TaxIds {
    private TaxIds() {
    }

    public static String mask(String taxId) {
        if (taxId == null || taxId.isBlank()) {
            return "";
        }
        String last4 = last4(taxId);
        return last4.isEmpty() ? "***" : "***-**-" + last4;
    }

    /** The last four digits, all that is ever shown or sent of a tax id; empty when it has fewer. */
    public static String last4(String taxId) {
        String digits = taxId == null ? "" : taxId.replaceAll("[^0-9]", "");
        return digits.length() < 4 ? "" : digits.substring(digits.length() - 4);
    }
}
