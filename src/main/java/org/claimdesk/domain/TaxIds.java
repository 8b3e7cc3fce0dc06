package org.claimdesk.domain;

/** Masking of SSNs, ITINs and EINs: only the last four digits are ever shown. */
public final class TaxIds {
    private TaxIds() {
    }

    public static String mask(String taxId) {
        if (taxId == null || taxId.isBlank()) {
            return "";
        }
        String digits = taxId.replaceAll("[^0-9]", "");
        if (digits.length() < 4) {
            return "***";
        }
        return "***-**-" + digits.substring(digits.length() - 4);
    }
}
