package org.claimdesk.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.text.Normalizer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The claimant's match form: one name however it was written, two names still two. */
class ClaimKeyTest {

    @Test
    void writingsOfOneNameHaveOneMatchForm() {
        String form = ClaimKey.matchForm("María José O'Brien-Núñez");
        assertThat(form).isEqualTo("mariajoseobriennunez");
        for (String writing : List.of("MARIA JOSE O'BRIEN-NUNEZ", "  maría  josé  o’brien núñez ",
                Normalizer.normalize("María José O'Brien-Núñez", Normalizer.Form.NFD),
                "María\u00a0José OBrien Núñez", "ＭＡＲＩＡ José O'Brien-Núñez")) {
            assertThat(ClaimKey.matchForm(writing)).as(writing).isEqualTo(form);
        }
        assertThat(ClaimKey.matchForm("Straße")).isEqualTo(ClaimKey.matchForm("STRASSE"));
    }

    @Test
    void otherNamesStayApart() {
        assertThat(ClaimKey.matchForm("Maria Garcia")).isNotEqualTo(ClaimKey.matchForm("Mario Garcia"));
        assertThat(ClaimKey.matchForm("Harbor Dental Group LLC 2")).isNotEqualTo(
                ClaimKey.matchForm("Harbor Dental Group LLC"));
        assertThat(ClaimKey.matchForm("王小明")).isNotEqualTo(ClaimKey.matchForm("王小红")).isEqualTo("王小明");
        // the marks other scripts spell with stay: a vowel sign, a voicing mark
        assertThat(ClaimKey.matchForm("राम")).isNotEqualTo(ClaimKey.matchForm("रमा"));
        assertThat(ClaimKey.matchForm("ガルシア")).isNotEqualTo(ClaimKey.matchForm("カルシア"));
        assertThat(ClaimKey.matchForm("สมชาย")).isNotEqualTo(ClaimKey.matchForm("สมชย"));
        // and are one however they were typed (composed or not)
        assertThat(ClaimKey.matchForm(Normalizer.normalize("ガルシア", Normalizer.Form.NFD)))
                .isEqualTo(ClaimKey.matchForm("ガルシア"));
        assertThat(ClaimKey.matchForm("Ελένη Παπαδοπούλου")).isEqualTo(ClaimKey.matchForm("ΕΛΕΝΗ ΠΑΠΑΔΟΠΟΥΛΟΥ"));
        assertThat(ClaimKey.matchForm("Νίκος Παπαδόπουλος")).isEqualTo(ClaimKey.matchForm("ΝΙΚΟΣ ΠΑΠΑΔΟΠΟΥΛΟΣ"))
                .isEqualTo("νικοσπαπαδοπουλοσ");
        assertThat(ClaimKey.matchForm("Иван Ёлкин")).isEqualTo(ClaimKey.matchForm("ИВАН ЕЛКИН"));
    }

    @Test
    void theMatchFormIsItsOwnMatchFormAndTheKeyComparesIt() {
        for (String name : List.of("Nguyễn Văn An", "ǅemal Ǉubić", "Ⅻ Ｌｅｏ ﬁnn", "İstanbul Ltd", "राम", "ガルシア",
                "สมชาย", "Νίκος Παπαδόπουλος", "ΝΙΚΟΣ ΠΑΠΑΔΟΠΟΥΛΟΣ")) {
            String form = ClaimKey.matchForm(name);
            assertThat(ClaimKey.matchForm(form)).as(name).isEqualTo(form);
        }
        assertThat(new ClaimKey("CA", "4401187", "Nguyễn Văn An"))
                .isEqualTo(new ClaimKey("CA", "4401187", "NGUYEN VAN AN"))
                .isNotEqualTo(new ClaimKey("NV", "4401187", "Nguyễn Văn An"))
                .isNotEqualTo(new ClaimKey("CA", "4401188", "Nguyễn Văn An"));
        assertThat(new ClaimKey("CA", "4401187", "NGUYEN VAN AN").claimant()).isEqualTo("nguyenvanan");
    }
}
