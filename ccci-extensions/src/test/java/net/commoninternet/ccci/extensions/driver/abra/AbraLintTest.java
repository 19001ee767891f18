package net.commoninternet.ccci.extensions.driver.abra;

import static net.commoninternet.ccci.extensions.driver.abra.AbraFixtures.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import net.commoninternet.ccci.extensions.driver.abra.AbraCli.Invocation;
import net.commoninternet.ccci.extensions.driver.abra.AbraCli.Lint;
import net.commoninternet.ccci.extensions.driver.abra.AbraCli.LintRule;
import net.commoninternet.ccci.extensions.driver.abra.AbraCli.Severity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** abra recipe lint's table, on the constructed fixtures and on garblings of them. */
class AbraLintTest {

    private static final Invocation LINT = AbraFixtures.CLI.recipeLint("hedgedoc");

    private static Lint lint(String output) throws AbraException {
        return AbraCli.lint(LINT, output);
    }

    private static LintRule rule(Lint lint, String ref) {
        return lint.rules().stream().filter(r -> r.ref().equals(ref)).findFirst().orElseThrow();
    }

    @Test
    void aCleanTableHasSixteenRulesAndNoFailure() throws AbraException {
        Lint lint = lint(read("lint-all-satisfied.constructed.txt"));
        assertThat(lint.rules()).extracting(LintRule::ref).hasSize(16).contains("R001", "R016");
        assertThat(lint.failures()).isEmpty();
        assertThat(lint.criticalWarning()).isFalse();
        assertThat(rule(lint, "R001")).isEqualTo(new LintRule("R001", "compose config has expected version",
                Severity.WARN, AbraCli.Outcome.SATISFIED, "ensure 'version: \"3.8\"' in compose configs"));
    }

    @Test
    void aSkippedRuleIsNeitherSatisfiedNorAFailure() throws AbraException {
        LintRule r013 = rule(lint(read("lint-all-satisfied.constructed.txt")), "R013");
        assertThat(r013.skipped()).isTrue();
        assertThat(r013.satisfied()).isFalse();
        assertThat(r013.severity()).isEqualTo(Severity.WARN);
    }

    @Test
    void anUnsatisfiedErrorRuleFailsAndAbraWarnsOfIt() throws AbraException {
        Lint lint = lint(read("lint-r014-error.constructed.txt"));
        assertThat(lint.failures()).extracting(LintRule::ref).containsExactly("R014");
        assertThat(lint.criticalWarning()).isTrue();
    }

    @Test
    void anUnsatisfiedWarnRuleIsNoFailure() throws AbraException {
        Lint lint = lint(read("lint-r015-warn-only.constructed.txt"));
        assertThat(rule(lint, "R015").satisfied()).isFalse();
        assertThat(lint.failures()).isEmpty();
        assertThat(lint.criticalWarning()).isFalse();
    }

    @Test
    void whatAPseudoTerminalAddsChangesNothing() throws AbraException {
        Lint viaPty = lint(read("lint-r014-error-pty.constructed.txt"));
        assertThat(viaPty).isEqualTo(lint(read("lint-r014-error.constructed.txt")));
    }

    @Test
    void anAsciiBorderedTableWithLogLinesAroundItParses() throws AbraException {
        String ascii = "INFO fetching tags\n+-----+------+----------+-----------+---------+-------+\n"
                + "| ref | rule | severity | satisfied | skipped | fix |\n"
                + "+-----+------+----------+-----------+---------+-------+\n"
                + "| R009 | all services have images | error | ❌ | - | set image |\n"
                + "+-----+------+----------+-----------+---------+-------+\n"
                + "WARN critical errors present in hedgedoc config\n";
        Lint lint = lint(ascii);
        assertThat(lint.failures()).extracting(LintRule::ref).containsExactly("R009");
        assertThat(lint.rules().get(0).resolve()).isEqualTo("set image");
    }

    @Test
    void aWrappedCellIsJoinedToItsRow() throws AbraException {
        String clean = read("lint-all-satisfied.constructed.txt");
        String wrapped = clean.replace("│ R002 │ healthcheck enabled for all services        │",
                "│ R002 │ healthcheck enabled for all                 │")
                .replace("│ R003 │", "│      │ services                                    │ "
                        + "         │           │         │                                                         │\n│ R003 │");
        assertThat(rule(lint(wrapped), "R002").rule()).isEqualTo("healthcheck enabled for all services");
    }

    @Test
    void noTableIsAnErrorThatShowsWhatAbraPrinted() {
        assertThatThrownBy(() -> lint("INFO nothing to see\n"))
                .isInstanceOf(AbraException.class)
                .hasMessageContaining("abra recipe lint printed output ccci cannot read (no lint table")
                .hasMessageContaining("| INFO nothing to see");
    }

    @Test
    void aTableCutAfterItsHeaderIsAnError() {
        String clean = read("lint-all-satisfied.constructed.txt");
        String truncated = clean.substring(0, clean.indexOf("│ R001"));
        assertThatThrownBy(() -> lint(truncated)).isInstanceOf(AbraException.class)
                .hasMessageContaining("has a header but no rules");
    }

    /** One cell or row of a real-shaped table garbled; the error says which and how. */
    static Stream<Arguments> garbledRows() {
        return Stream.of(
                Arguments.of("an unknown verdict glyph", "lint-r014-error.constructed.txt",
                        "│ ❌        │", "│ ?         │", "R014 has satisfied \"?\""),
                Arguments.of("a dash verdict on a rule that ran", "lint-all-satisfied.constructed.txt",
                        "│ warn     │ ✅        │ -       │ wire up", "│ warn     │ -         │ -       │ wire up",
                        "R002 has satisfied \"-\""),
                Arguments.of("an unknown severity", "lint-all-satisfied.constructed.txt",
                        "expected version         │ warn     │", "expected version         │ fatal    │",
                        "R001 has unknown severity \"fatal\""),
                Arguments.of("a row missing a cell", "lint-all-satisfied.constructed.txt",
                        "│ -       │ wire up healthchecks", "│ wire up healthchecks",
                        "a table row has 5 cells where the header has 6"),
                Arguments.of("a rule listed twice", "lint-all-satisfied.constructed.txt",
                        "│ R016 │", "│ R001 │", "rule R001 appears twice"),
                Arguments.of("a ref that is not a rule", "lint-all-satisfied.constructed.txt",
                        "│ R016 │", "│ X16  │", "\"X16\" is not a lint rule ref"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("garbledRows")
    void aGarbledRowIsAnError(String what, String fixture, String cell, String garbling, String message) {
        String clean = read(fixture);
        assertThat(clean).as("the fixture has the cell to garble").contains(cell);
        assertThatThrownBy(() -> lint(clean.replace(cell, garbling))).isInstanceOf(AbraException.class)
                .hasMessageStartingWith("abra recipe lint printed output ccci cannot read (")
                .hasMessageContaining(message);
    }

    @Test
    void abrasCriticalWarningWithoutAFailingRowIsAnError() {
        String garbled = read("lint-all-satisfied.constructed.txt") + "WARN critical errors present in hedgedoc config\n";
        assertThatThrownBy(() -> lint(garbled)).isInstanceOf(AbraException.class)
                .hasMessageContaining("abra warned of critical errors, but no error rule is unsatisfied");
    }

    @Test
    void binaryGarbageIsAnError() {
        assertThatThrownBy(() -> lint("\u0000\u0001\u00ff│\u0002│\u0003")).isInstanceOf(AbraException.class)
                .hasMessageContaining("no lint table");
    }
}
