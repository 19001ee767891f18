package net.commoninternet.ccci.testing;

import java.time.Instant;
import java.util.List;
import java.util.TreeMap;

/** Runs' spans, read off their results.json: how many were in flight at once. */
public final class RunSpans {

    private RunSpans() {
    }

    /** The most spans ({start, end}) open at one instant: a sweep over their starts and ends, an end before a start at a tie. */
    public static int mostAtOnce(List<Instant[]> spans) {
        TreeMap<Instant, Integer> edges = new TreeMap<>();
        for (Instant[] span : spans) {
            edges.merge(span[0], 1, Integer::sum);
            edges.merge(span[1], -1, Integer::sum);
        }
        int open = 0;
        int most = 0;
        for (int delta : edges.values()) {
            open += delta;
            most = Math.max(most, open);
        }
        return most;
    }
}
