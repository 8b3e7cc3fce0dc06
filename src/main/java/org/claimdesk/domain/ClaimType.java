package org.claimdesk.domain;

/** Who files the claim. */
public enum ClaimType {
    OWNER, HEIR, ON_BEHALF, BUSINESS
}
