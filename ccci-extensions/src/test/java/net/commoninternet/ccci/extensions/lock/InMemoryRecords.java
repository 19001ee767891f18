package net.commoninternet.ccci.extensions.lock;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A stand-in for the swarm managers' raft store, named as such: the real one needs a swarm (the
 * concurrency suite's {@code MultiHostLeaseTest} uses it). The semantics {@link SwarmRecords} relies
 * on, and nothing more: a create of an existing name is refused (the engine's 409: empty); every
 * write gets the next index of one store-wide counter as its version (raft's index); an update names
 * the version it read and is refused if the record moved since ("update out of sequence"), or is gone
 * (404); a delete is by id and unversioned; time stamps are whatever {@link #stampedBy} reads at the
 * write. Each call is atomic (the leader applies it in one store transaction). {@link #unreachable}
 * makes every call fail as a manager that does not answer does.
 *
 * <p>Used by the engine-free tests of the real {@link AppDomainLease} and by the protocol's model
 * checker, which copies it into each state it explores ({@link #copy}).
 */
class InMemoryRecords extends SwarmRecords {

    private final Map<String, Stored> byId = new LinkedHashMap<>();
    private long index;
    private long ids;
    private LongSupplier stamp = () -> 0;
    /** Told of every call as it is applied ("read <id>", "swap <id> <state> <renewal>", ...): a test's event log. */
    private Consumer<String> calls = call -> { };
    private volatile boolean unreachable;
    /** Reads still to fail once their call is in (a manager that applied a write and died before its answer). */
    private int failingReads;

    InMemoryRecords() {
        super(null);
    }

    /** A copy of this store's records and counters (for the model checker's states). */
    synchronized InMemoryRecords copy() {
        InMemoryRecords copy = new InMemoryRecords();
        copy.byId.putAll(byId);
        copy.index = index;
        copy.ids = ids;
        return copy;
    }

    /** Writes from now on are stamped with this clock's reading, in seconds (the leader's clock, or a model's host's). */
    synchronized InMemoryRecords stampedBy(LongSupplier seconds) {
        this.stamp = seconds;
        return this;
    }

    /** Every call from now on is told to {@code log} as it is applied, inside the store's transaction. */
    synchronized InMemoryRecords logging(Consumer<String> log) {
        this.calls = log;
        return this;
    }

    /** The next {@code reads} reads fail, as a call whose manager died mid-call does. */
    synchronized void failReads(int reads) {
        this.failingReads = reads;
    }

    /** While set, every call fails as it does when no manager answers. */
    void unreachable(boolean unreachable) {
        this.unreachable = unreachable;
    }

    /** The first record (the model's store has at most one: its domain's). */
    synchronized Optional<Stored> first() {
        return byId.values().stream().findFirst();
    }

    /** The records, in creation order. */
    synchronized List<Stored> all() {
        return new ArrayList<>(byId.values());
    }

    private void answer() throws IOException {
        if (unreachable) {
            throw new IOException("the swarm's managers do not answer (an in-memory stand-in made unreachable)");
        }
    }

    private Stored write(String id, String name, Map<String, String> labels) {
        Stored stored = new Stored(id, name, ++index, Instant.ofEpochSecond(stamp.getAsLong()), labels);
        byId.put(id, stored);
        return stored;
    }

    @Override
    public synchronized Optional<Stored> create(String name, Map<String, String> labels) throws IOException {
        answer();
        if (byName(name).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(write("id" + ++ids, name, labels));
    }

    private Optional<Stored> byName(String name) {
        return byId.values().stream().filter(r -> r.name().equals(name)).findFirst();
    }

    @Override
    public synchronized Optional<Stored> read(String nameOrId) throws IOException {
        answer();
        if (failingReads > 0) {
            failingReads--;
            throw new IOException("the manager died before it answered (an in-memory stand-in's failed read)");
        }
        Stored byIdentity = byId.get(nameOrId);
        calls.accept("read " + nameOrId);
        return byIdentity != null ? Optional.of(byIdentity) : byName(nameOrId);
    }

    @Override
    public synchronized Swap swap(Stored seen, Map<String, String> labels) throws IOException {
        answer();
        Stored now = byId.get(seen.id());
        if (now == null) {
            return Swap.GONE;
        }
        if (now.version() != seen.version()) {
            return Swap.OUT_OF_SEQUENCE;
        }
        write(now.id(), now.name(), labels);
        calls.accept("swap " + now.id() + " " + labels.get(AppDomainLease.STATE) + " " + labels.get(AppDomainLease.RENEWAL));
        return Swap.SWAPPED;
    }

    @Override
    public synchronized void delete(String id) throws IOException {
        answer();
        calls.accept("delete " + id);
        byId.remove(id);
    }

    @Override
    public synchronized List<Stored> list(String key) throws IOException {
        answer();
        return byId.values().stream().filter(r -> r.labels().containsKey(key)).toList();
    }

    @Override
    public synchronized Instant swarmNow() throws IOException {
        answer();
        return Instant.ofEpochSecond(stamp.getAsLong());
    }
}
