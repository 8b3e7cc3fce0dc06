package org.claimdesk.domain;

/** The NAUPA property type codes ClaimDesk knows, with their plain names. */
public enum PropertyType {
    AC01("Checking account"),
    AC02("Savings account"),
    MS01("Wages, payroll, salary"),
    MS11("Refunds"),
    CK13("Vendor checks"),
    CK01("Cashier's checks"),
    IN04("Insurance proceeds"),
    UT01("Utility deposits"),
    SC("Securities"),
    SD01("Safe-deposit contents");

    private final String description;

    PropertyType(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
