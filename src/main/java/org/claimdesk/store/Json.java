package org.claimdesk.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.util.LinkedHashMap;
import java.util.Map;

/** The one Jackson configuration ClaimDesk uses for outbox payloads, reports and CLI output. */
public final class Json {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            // a first filing's payload reads as it did before amendments were sent: no "amends": null
            .addMixIn(org.claimdesk.domain.SubmissionPayload.class, FirstFilingWithoutAmends.class);

    private abstract static class FirstFilingWithoutAmends {
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        abstract String amends();
    }

    private Json() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON for " + value.getClass().getSimpleName(), e);
        }
    }

    /** A JSON object as a map, its fields in order; an empty map when the text is not a JSON object. */
    public static Map<String, Object> readObject(String json) {
        try {
            Map<String, Object> read = MAPPER.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
            return read == null ? Map.of() : read;
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return Map.of();
        }
    }

    public static String pretty(String json) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(MAPPER.readTree(json));
        } catch (JsonProcessingException e) {
            return json;
        }
    }
}
