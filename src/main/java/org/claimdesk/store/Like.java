package org.claimdesk.store;

/** Builds LIKE patterns that treat the user's text literally, wildcards and quotes included. */
final class Like {

    private Like() {
    }

    /** {@code %text%} with {@code %}, {@code _} and the escape character {@code !} escaped (the SQL says {@code ESCAPE '!'}). */
    static String contains(String text) {
        StringBuilder pattern = new StringBuilder("%");
        for (char c : text.toCharArray()) {
            if (c == '%' || c == '_' || c == '!') {
                pattern.append('!');
            }
            pattern.append(c);
        }
        return pattern.append('%').toString();
    }
}
