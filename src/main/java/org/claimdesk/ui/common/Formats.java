package org.claimdesk.ui.common;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.claimdesk.domain.Amounts;

/** How the console writes amounts, counts, dates, times and ages. */
public final class Formats {
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final DateTimeFormatter DATE_MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");
    private static final DateTimeFormatter DATE = DateTimeFormatter.ISO_LOCAL_DATE;

    private Formats() {
    }

    public static String money(long cents) {
        return Amounts.dollars(cents);
    }

    public static String count(long n) {
        return String.format(Locale.US, "%,d", n);
    }

    public static String date(LocalDate date) {
        return date == null ? "" : DATE.format(date);
    }

    public static String time(Instant instant) {
        return instant == null ? "" : DATE_TIME.format(instant.atZone(ZoneId.systemDefault()));
    }

    /** {@link #time} to the minute: where the column is narrow (the claim's detail) and the second says nothing. */
    public static String minute(Instant instant) {
        return instant == null ? "" : DATE_MINUTE.format(instant.atZone(ZoneId.systemDefault()));
    }

    /** "3 d", "5 h", "12 min", "40 s": how long ago (or, negative, how far ahead) {@code instant} is. */
    public static String age(Instant instant, Instant now) {
        if (instant == null) {
            return "";
        }
        Duration d = Duration.between(instant, now);
        boolean ahead = d.isNegative();
        d = d.abs();
        String text;
        if (d.toDays() >= 1) {
            text = d.toDays() + " d";
        } else if (d.toHours() >= 1) {
            text = d.toHours() + " h";
        } else if (d.toMinutes() >= 1) {
            text = d.toMinutes() + " min";
        } else {
            text = d.toSeconds() + " s";
        }
        return ahead ? "in " + text : text;
    }

    /** "3 d ago", or "just now" for an instant that is not in the past. */
    public static String ago(Instant instant, Instant now) {
        if (instant == null) {
            return "";
        }
        return instant.isAfter(now) ? "just now" : age(instant, now) + " ago";
    }

    /** A status or state name as staff read it: "READY_FOR_SUBMISSION" becomes "Ready for submission". */
    public static String label(String constant) {
        if (constant == null || constant.isEmpty()) {
            return "";
        }
        String lower = constant.toLowerCase(Locale.ROOT).replace('_', ' ');
        return Character.toUpperCase(lower.charAt(0)) + lower.substring(1);
    }

    /** One line of at most {@code max} characters. */
    public static String oneLine(String text, int max) {
        if (text == null) {
            return "";
        }
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= max ? line : line.substring(0, max - 1) + "…";
    }
}
