package net.commoninternet.ccci.extensions.lock;

import java.util.List;

/**
 * A transition system {@link ProtocolExplorer} explores: the lease protocol ({@link ProtocolModel}) and
 * the keep's hand-over ({@link HandOverModel}).
 *
 * @param <S> a state
 */
interface Explorable<S> {

    /** One step: what it was (for the trace) and the state it leads to. */
    record Move<S>(String label, S next) {
    }

    S initial();

    List<Move<S>> moves(S state);

    /** What the state keeps that a decision or an invariant can tell apart: equal keys, one state. */
    String key(S state);

    /** The invariant the step into this state broke, or null. */
    String violation(S state);

    /** The invariant a state where nothing can move any more breaks, or null (by default: none). */
    default String atRest(S state) {
        return null;
    }

    /** The trace's header and its line for {@code state}, reached by {@code label}. */
    String traceHeader();

    String traceLine(S state, String label);
}
