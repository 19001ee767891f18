package net.commoninternet.ccci.extensions.lock;

import java.util.Optional;
import net.commoninternet.ccci.extensions.lock.SwarmRecords.Stored;

/**
 * One state of the lease model: real time, the store (the swarm's one record of the domain), every
 * host, and what the explorer needs to judge the invariants. {@link #key} is its canonical form, the
 * visited-state hash: two states with the same key have the same future, because the key keeps
 * exactly what the protocol's decisions and the invariants can tell apart (below).
 *
 * <p>Why the reduction is sound: every decision ({@link LeaseRules}) and every invariant compares
 * record versions and ids only for equality, tokens only with the reading host's own, and clock
 * readings only as differences against constants no larger than {@link ProtocolModel#CAP} ticks. So
 * versions and ids are renamed in order of appearance, tokens become "this host's current one" or
 * "an old one", and each clock reading becomes its age on its own host's clock, capped at
 * {@code CAP} (an age past it compares like any other past it, and ages only grow). Real time itself
 * is dropped: nothing compares it with a constant but the call bound ({@code sentTick}, kept as an
 * age). No symmetry reduction: the hosts' clocks have different origins, so no two are alike.
 */
final class ModelState {

    long now;
    InMemoryRecords store;
    ModelHost[] hosts;
    int faults;
    /** Whether the rules explored read the records' time stamps (a seeded bug's): only then are they part of the key. */
    boolean stamps;
    /** The first invariant broken, with its reason, or null. */
    String violation;

    ModelState copy() {
        ModelState c = new ModelState();
        c.now = now;
        c.store = store.copy();
        c.hosts = new ModelHost[hosts.length];
        for (int i = 0; i < hosts.length; i++) {
            c.hosts[i] = hosts[i].copy();
        }
        c.faults = faults;
        c.stamps = stamps;
        c.violation = violation;
        return c;
    }

    long clock(ModelHost host) {
        return now + host.boot + host.drift;
    }

    /** The domain's record, if any. */
    Optional<Stored> record() {
        return store.first();
    }

    /** The host whose current token the record carries, if it is one of the model's processes now. */
    ModelHost holderOf(Optional<Stored> record) {
        if (record.isEmpty()) {
            return null;
        }
        String token = record.get().label(AppDomainLease.TOKEN);
        for (ModelHost host : hosts) {
            if (host.token().equals(token) && (host.phase == ModelHost.Phase.HOLD)) {
                return host;
            }
        }
        return null;
    }

    String key() {
        Names names = new Names();
        StringBuilder out = new StringBuilder(320);
        out.append(faults).append('|');
        record(out, names, record(), null);
        for (ModelHost h : hosts) {
            long clock = ProtocolModel.ns(clock(h));
            out.append('|').append(h.phase.ordinal()).append(h.crashed ? 'c' : '-').append(h.paused ? 'p' : '-')
                    .append(h.partitioned ? 'n' : '-');
            if (h.phase == ModelHost.Phase.DONE && h.role == ModelHost.Role.RUN || h.crashed && h.call == null) {
                continue; // a finished run or a dead process takes no step again (a restart starts afresh)
            }
            out.append(h.drift).append(h.drifts).append(h.faulted ? 'f' : '-');
            if (h.contending()) {
                out.append(h.looked ? 'l' : '-');
            }
            if (h.phase == ModelHost.Phase.HOLD) {
                out.append(h.lost ? 'L' : '-').append(h.released ? 'R' : '-').append(h.beatEnded ? 'E' : '-');
            }
            seen(out, names, h.watched, clock);
            seen(out, names, h.base, clock);
            if (h.phase == ModelHost.Phase.HOLD) {
                record(out, names, Optional.ofNullable(h.current), h);
                out.append(',').append(age(clock, h.confirmedAt)).append(',')
                        .append(h.unconfirmedSince == null ? "x" : Long.toString(age(clock, h.unconfirmedSince))).append(',')
                        .append(Math.max(0, Math.min(ProtocolModel.HEARTBEAT + 1, ticks(h.nextAt - clock))));
                if (h.call != null && h.call.stage() == ModelHost.Stage.QUEUED) {
                    out.append(",queued");
                } else if (h.call != null) {
                    out.append(",call").append(h.call.stage().ordinal()).append(',').append(age(clock, h.call.sentAt()))
                            .append(',').append(h.call.next() - h.renewal).append(',').append(h.call.swap()).append(',')
                            .append(Math.min(ProtocolModel.MAX_CALL + 1, now - h.call.sentTick()));
                    record(out, names, Optional.ofNullable(h.call.base()), h);
                }
            }
            out.append(',').append(h.since == null ? "x" : Long.toString(age(clock, h.since)));
        }
        return out.toString();
    }

    private static long ticks(long nanos) {
        return Math.floorDiv(nanos, ProtocolModel.ns(1));
    }

    private static long age(long clock, long reading) {
        return Math.min(ProtocolModel.CAP, ticks(clock - reading));
    }

    private void seen(StringBuilder out, Names names, AppDomainLease.Seen seen, long clock) {
        if (seen == null) {
            out.append(",_");
            return;
        }
        out.append(",s").append(age(clock, seen.seenAt()));
        record(out, names, seen.record(), NO_RENEWAL);
    }

    /** A record by its renamed id and version, state, whose token, its renewal relative to {@code holder}'s, its stamp. */
    private void record(StringBuilder out, Names names, Optional<Stored> record, ModelHost holder) {
        if (record.isEmpty()) {
            out.append(",-");
            return;
        }
        Stored r = record.get();
        out.append(",i").append(names.id(r.id())).append('v').append(names.version(r.version()))
                .append(r.label(AppDomainLease.STATE).charAt(0)).append(token(r.label(AppDomainLease.TOKEN)));
        ModelHost owner = holder == NO_RENEWAL ? null : holder != null ? holder : tokenHost(r.label(AppDomainLease.TOKEN));
        if (owner != null && owner.token().equals(r.label(AppDomainLease.TOKEN))) {
            out.append('r').append(Long.parseLong(r.label(AppDomainLease.RENEWAL)) - owner.renewal);
        }
        if (stamps) {
            out.append('t').append(Math.max(-ProtocolModel.STAMP_FLOOR, r.updatedAt().getEpochSecond() - now));
        }
    }

    private ModelHost tokenHost(String token) {
        for (ModelHost host : hosts) {
            if (token.startsWith(host.name() + "#")) {
                return host;
            }
        }
        return null;
    }

    private String token(String token) {
        ModelHost host = tokenHost(token);
        return host == null ? "?" : host.name() + (host.token().equals(token) ? "" : "~");
    }

    /** A read's copy of a record: no decision reads its renewal number (only a holder's own current record's). */
    private static final ModelHost NO_RENEWAL = new ModelHost(-1, ModelHost.Role.RUN, 0, null);

    /** Ids and versions renamed in order of appearance: only their equality matters (a state holds a few of each). */
    private static final class Names {
        private final String[] ids = new String[16];
        private final long[] versions = new long[16];
        private int idCount;
        private int versionCount;

        int id(String id) {
            for (int i = 0; i < idCount; i++) {
                if (ids[i].equals(id)) {
                    return i;
                }
            }
            ids[idCount] = id;
            return idCount++;
        }

        int version(long version) {
            for (int i = 0; i < versionCount; i++) {
                if (versions[i] == version) {
                    return i;
                }
            }
            versions[versionCount] = version;
            return versionCount++;
        }
    }
}
