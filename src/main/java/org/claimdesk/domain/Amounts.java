package org.claimdesk.domain;

/** How ClaimDesk writes an amount held in cents: "$1,234.56", the same in the console and the CLI. */
public final class Amounts {
    private Amounts() {
    }

    public static String dollars(long cents) {
        long abs = Math.abs(cents);
        StringBuilder digits = new StringBuilder(Long.toString(abs / 100));
        for (int i = digits.length() - 3; i > 0; i -= 3) {
            digits.insert(i, ',');
        }
        long rest = abs % 100;
        return (cents < 0 ? "-$" : "$") + digits + (rest < 10 ? ".0" : ".") + rest;
    }
}
