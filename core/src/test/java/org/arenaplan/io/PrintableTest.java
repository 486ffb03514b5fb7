package org.arenaplan.io;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Names and lines from the user's files, made safe and short for a one-line message. */
class PrintableTest {
    @Test
    void aLongNameIsCutAfterItsFirstCharactersAndItsLengthSaid() {
        assertThat(Printable.name("x".repeat(200))).isEqualTo("x".repeat(200));
        assertThat(Printable.name("x".repeat(201))).isEqualTo("x".repeat(200) + "… (201 chars)");
        assertThat(Printable.name("a\nb")).isEqualTo("a\\u000ab");
        // a surrogate pair is not split: the cut falls before it
        String emoji = "x".repeat(199) + "\uD83D\uDE00" + "y";
        assertThat(Printable.name(emoji)).isEqualTo("x".repeat(199) + "… (202 chars)");
    }

    /** The backstop for names no message builder cut: a line past 8,000 characters keeps its start and end. */
    @Test
    void aLineOverTheLimitKeepsItsStartAndItsEnd() {
        String line = "start " + "m".repeat(1_000_000) + " end";
        String shown = Printable.of(line);
        assertThat(shown).startsWith("start mmm").endsWith("mmm end").contains("… (" + (line.length() - 8_000) + " chars left out) …");
        assertThat(shown.length()).isLessThan(8_100);
        assertThat(Printable.of("m".repeat(8_000))).isEqualTo("m".repeat(8_000));
    }
}
