package net.commoninternet.ccci.extensions.lock;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.commoninternet.ccci.extensions.lock.ModelHost.Role;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The lease protocol's model checked: every interleaving of two hosts' steps (a crash, a pause, the
 * managers not answering or a restart among them, and clock drift), to the end of every schedule;
 * three hosts to a bounded depth (deeper on demand: {@code scripts/bench model <depth>}). Then each
 * seeded bug must be found, with a schedule that replays to the same broken invariant.
 */
class ProtocolModelTest {

    /** Two runs of one domain on two hosts; a run and a janitor; one fault a schedule, drift within a tick. */
    static final List<List<Role>> TWO_HOSTS = List.of(List.of(Role.RUN, Role.RUN), List.of(Role.RUN, Role.JANITOR));
    static final List<Role> THREE_HOSTS = List.of(Role.RUN, Role.RUN, Role.JANITOR);
    /** The depth the three hosts are explored to in CI (about ten seconds here). */
    static final int THREE_HOST_DEPTH = 32;

    static ProtocolModel model(List<Role> roles, int faults, LeaseRules rules, boolean stamps) {
        return new ProtocolModel(new ProtocolModel.Config(roles, faults, 1, rules, stamps));
    }

    @Test
    void twoHostsFindNoViolationInAnySchedule() {
        for (List<Role> roles : TWO_HOSTS) {
            ProtocolExplorer.Result result = ProtocolExplorer.explore(model(roles, 1, LeaseRules.PROTOCOL, false), 1000);
            System.out.println("lease model, " + roles + ", one fault: " + result.summary());
            assertThat(result.violation()).as(() -> result.violation().get().print()).isEmpty();
            assertThat(result.exhaustive()).as("the state graph ends before the depth bound").isTrue();
            assertThat(result.states()).isGreaterThan(100_000);
        }
    }

    @Test
    void threeHostsFindNoViolationToTheDepth() {
        ProtocolExplorer.Result result = ProtocolExplorer.explore(model(THREE_HOSTS, 0, LeaseRules.PROTOCOL, false),
                THREE_HOST_DEPTH);
        System.out.println("lease model, " + THREE_HOSTS + ", no fault: " + result.summary());
        assertThat(result.violation()).as(() -> result.violation().get().print()).isEmpty();
        assertThat(result.reached()).isEqualTo(THREE_HOST_DEPTH);
    }

    @ParameterizedTest
    @EnumSource(SeededBug.class)
    void eachSeededBugIsFoundWithAScheduleThatReplays(SeededBug bug) {
        List<Role> roles = bug == SeededBug.REAP_WITHOUT_LEASE ? TWO_HOSTS.get(1) : TWO_HOSTS.get(0);
        ProtocolModel model = model(roles, 1, bug.rules(), bug.readsStamps());
        ProtocolExplorer.Result result = ProtocolExplorer.explore(model, 1000);
        assertThat(result.violation()).as(bug.what() + " is found").isPresent();
        ProtocolExplorer.Trace trace = result.violation().get();
        System.out.println("seeded bug: " + bug.what() + " (" + result.summary() + ")\n" + trace.print());
        ModelState replayed = ProtocolExplorer.replay(model, trace.steps());
        assertThat(replayed.violation).as("the schedule replays to the same broken invariant").isEqualTo(trace.violation());
        assertThat(ProtocolExplorer.replayWhileEnabled(new ProtocolModel(model.config().with(LeaseRules.PROTOCOL, false)),
                trace.steps()).violation)
                .as("the protocol as built, on the same schedule (as far as it takes the same steps), breaks nothing").isNull();
    }
}
