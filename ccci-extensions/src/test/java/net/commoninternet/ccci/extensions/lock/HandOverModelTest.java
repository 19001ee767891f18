package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The keep's hand-over, model-checked ({@link HandOverModel}): as built, no schedule of the run, its
 * keeper, a janitor, a new run of the domain, a SIGTERM of the command and one SIGKILL breaks an
 * invariant; each seeded bug is found, with the shortest schedule that shows it.
 */
class HandOverModelTest {

    @Test
    void theHandOverAsBuiltBreaksNothingInAnySchedule() {
        HandOverModel.Result result = new HandOverModel(HandOverModel.Variant.AS_BUILT, 1).explore();
        assertThat(result.violation()).as(result.why() + ": " + result.violation().orElse(null)).isEmpty();
        assertThat(result.states()).as("the exploration reached the hand-over's states").isGreaterThan(100);
    }

    @ParameterizedTest
    @EnumSource(value = HandOverModel.Variant.class, names = "AS_BUILT", mode = EnumSource.Mode.EXCLUDE)
    void aSeededBugIsFound(HandOverModel.Variant bug) {
        HandOverModel.Result result = new HandOverModel(bug, 1).explore();
        assertThat(result.violation()).as(bug + " found").isPresent();
        System.out.println(bug + ": " + result.why() + " after " + String.join(" -> ", result.violation().get())
                + " (" + result.states() + " states)");
    }
}
