package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The keep's hand-over, model-checked by the lease protocol's explorer ({@link HandOverModel},
 * {@link ProtocolExplorer}): as built, no schedule of the run, its
 * keeper, a janitor, a new run of the domain, a SIGTERM of the command and one SIGKILL breaks an
 * invariant; each seeded bug is found, with the shortest schedule that shows it.
 */
class HandOverModelTest {

    @Test
    void theHandOverAsBuiltBreaksNothingInAnySchedule() {
        ProtocolExplorer.Result result = ProtocolExplorer.explore(new HandOverModel(HandOverModel.Variant.AS_BUILT, 1), 1000);
        System.out.println("hand-over model, one fault: " + result.summary());
        assertThat(result.violation()).as(() -> result.violation().get().print()).isEmpty();
        assertThat(result.exhaustive()).as("the state graph ends before the depth bound").isTrue();
        assertThat(result.states()).as("the exploration reached the hand-over's states").isGreaterThan(100);
    }

    @ParameterizedTest
    @EnumSource(value = HandOverModel.Variant.class, names = "AS_BUILT", mode = EnumSource.Mode.EXCLUDE)
    void aSeededBugIsFound(HandOverModel.Variant bug) {
        ProtocolExplorer.Result result = ProtocolExplorer.explore(new HandOverModel(bug, 1), 1000);
        assertThat(result.violation()).as(bug + " is found").isPresent();
        System.out.println("seeded hand-over bug " + bug + " (" + result.summary() + ")\n" + result.violation().get().print());
    }
}
