package net.commoninternet.ccci.extensions.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import net.commoninternet.ccci.extensions.lock.SwarmRecords.Stored;

/**
 * Explores every schedule of a {@link ProtocolModel} up to a depth (a number of steps), breadth
 * first, judging the invariants in every state it reaches. A state already reached (its
 * {@link ModelState#key}) is not explored again: breadth first, it was reached first by a schedule
 * no longer than this one, so every schedule through it up to the depth is already covered. The
 * schedules counted are all step sequences up to the depth from the initial state (counted on the
 * explored state graph, without enumerating them one by one).
 *
 * <p>A broken invariant stops the exploration with the shortest schedule that breaks it, as the
 * labels of its steps ({@link #replay} runs it again, step by step) and as a readable trace: real
 * time, the step, the store's record after it, every host's clock.
 */
final class ProtocolExplorer {

    /** What an exploration found. */
    record Result(int depth, int reached, long states, long transitions, double schedules, Duration took,
            Optional<Trace> violation) {
        /** Whether every state was reached before the depth bound: then every schedule, of any length, was explored. */
        boolean exhaustive() {
            return reached < depth && violation.isEmpty();
        }

        String summary() {
            String bound = exhaustive() ? "every schedule of any length (the state graph's depth is " + reached + ")"
                    : "every schedule up to " + reached + " steps";
            String counted = violation.isPresent() ? "" : String.format(", %.3g schedules up to that depth", schedules);
            return String.format("%s: %,d states, %,d transitions%s, %d ms%s", bound, states, transitions, counted,
                    took.toMillis(), violation.map(v -> "; VIOLATION: " + v.violation()).orElse(""));
        }
    }

    /** A schedule that breaks an invariant: its steps (replayable) and their trace. */
    record Trace(String violation, List<String> steps, List<String> lines) {
        String print() {
            return "invariant broken: " + violation + "\n" + String.join("\n", lines);
        }
    }

    private ProtocolExplorer() {
    }

    static Result explore(ProtocolModel model, int depth) {
        return explore(model.explorable(), depth);
    }

    /** Every schedule of {@code system} up to {@code depth} steps; a state where nothing moves is judged too. */
    static <S> Result explore(Explorable<S> model, int depth) {
        long started = System.nanoTime();
        Map<String, Integer> index = new HashMap<>();
        IntList parents = new IntList();
        List<String> labels = new ArrayList<>();
        Map<String, String> interned = new HashMap<>();
        IntList from = new IntList();
        IntList to = new IntList();
        S initial = model.initial();
        index.put(model.key(initial), 0);
        parents.add(-1);
        labels.add(null);
        List<S> frontier = new ArrayList<>(List.of(initial));
        IntList frontierIds = new IntList();
        frontierIds.add(0);
        int reached = 0;
        for (int d = 0; d < depth && !frontier.isEmpty(); d++) {
            List<S> next = new ArrayList<>();
            IntList nextIds = new IntList();
            for (int f = 0; f < frontier.size(); f++) {
                int id = frontierIds.get(f);
                List<Explorable.Move<S>> moves = model.moves(frontier.get(f));
                String atRest = moves.isEmpty() ? model.atRest(frontier.get(f)) : null;
                if (atRest != null) {
                    List<String> schedule = schedule(parents, labels, id);
                    return new Result(depth, d, index.size(), from.size(), Double.NaN, Duration.ofNanos(System.nanoTime() - started),
                            Optional.of(new Trace(atRest, schedule, trace(model, schedule))));
                }
                for (Explorable.Move<S> step : moves) {
                    String label = interned.computeIfAbsent(step.label(), l -> l);
                    String broken = model.violation(step.next());
                    if (broken != null) {
                        List<String> schedule = schedule(parents, labels, id);
                        schedule.add(label);
                        Trace trace = new Trace(broken, schedule, trace(model, schedule));
                        return new Result(depth, d, index.size(), from.size() + 1, Double.NaN,
                                Duration.ofNanos(System.nanoTime() - started), Optional.of(trace));
                    }
                    String key = model.key(step.next());
                    Integer target = index.get(key);
                    if (target == null) {
                        target = index.size();
                        index.put(key, target);
                        parents.add(id);
                        labels.add(label);
                        next.add(step.next());
                        nextIds.add(target);
                    }
                    from.add(id);
                    to.add(target);
                }
            }
            frontier = next;
            frontierIds = nextIds;
            reached = next.isEmpty() ? d : d + 1;
        }
        double schedules = schedules(index.size(), from, to, reached);
        return new Result(depth, reached, index.size(), from.size(), schedules, Duration.ofNanos(System.nanoTime() - started),
                Optional.empty());
    }

    /** Step sequences of length 0 to {@code depth} from the initial state: paths in the explored graph. */
    private static double schedules(int states, IntList from, IntList to, int depth) {
        double[] paths = new double[states];
        paths[0] = 1;
        double total = 1;
        for (int k = 1; k <= depth; k++) {
            double[] longer = new double[states];
            for (int e = 0; e < from.size(); e++) {
                longer[to.get(e)] += paths[from.get(e)];
            }
            paths = longer;
            for (double p : paths) {
                total += p;
            }
        }
        return total;
    }

    private static List<String> schedule(IntList parents, List<String> labels, int id) {
        List<String> steps = new ArrayList<>();
        for (int at = id; parents.get(at) >= 0; at = parents.get(at)) {
            steps.add(0, labels.get(at));
        }
        return steps;
    }

    /** Runs {@code schedule} again from the initial state: the state it ends in (with its violation, if any). */
    static ModelState replay(ProtocolModel model, List<String> schedule) {
        ModelState state = model.initial();
        for (String label : schedule) {
            state = model.successors(state).stream().filter(s -> s.label().equals(label)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("the step '" + label + "' is not enabled on replay"))
                    .next();
        }
        return state;
    }

    /** {@link #replay}, as far as the steps are enabled (other rules may not take the same path): the state it got to. */
    static ModelState replayWhileEnabled(ProtocolModel model, List<String> schedule) {
        ModelState state = model.initial();
        for (String label : schedule) {
            Optional<ProtocolModel.Step> step = model.successors(state).stream().filter(s -> s.label().equals(label)).findFirst();
            if (step.isEmpty()) {
                return state;
            }
            state = step.get().next();
        }
        return state;
    }

    private static <S> List<String> trace(Explorable<S> model, List<String> schedule) {
        List<String> lines = new ArrayList<>();
        S state = model.initial();
        lines.add(model.traceHeader());
        for (String label : schedule) {
            state = model.moves(state).stream().filter(s -> s.label().equals(label)).findFirst().orElseThrow().next();
            lines.add(model.traceLine(state, label));
        }
        return lines;
    }

    /** The lease model's trace line: real time, the step, the store's record after it, every host's clock. */
    static String leaseTraceLine(ModelState s, String label) {
        String clocks = Arrays.stream(s.hosts).map(h -> h.name() + "=" + s.clock(h)).collect(Collectors.joining(" "));
        return String.format("t=%-4d %-62s %-34s %s", s.now, label, record(s.record()), clocks);
    }

    static final String LEASE_TRACE_HEADER = String.format("%-6s %-62s %-34s %s", "time", "step", "store after it", "clocks");

    private static String record(Optional<Stored> record) {
        return record.map(r -> "v" + r.version() + " " + r.label(AppDomainLease.STATE) + " by "
                + r.label(AppDomainLease.TOKEN) + " renewal " + r.label(AppDomainLease.RENEWAL)).orElse("(no record)");
    }

    /** A growable int array: the explored graph's edges and parents, without boxing. */
    private static final class IntList {
        private int[] values = new int[1024];
        private int size;

        void add(int value) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = value;
        }

        int get(int i) {
            return values[i];
        }

        int size() {
            return size;
        }
    }
}
