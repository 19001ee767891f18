package net.commoninternet.ccci.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * axe-core, the standard accessibility engine (Deque's, from the npm registry; installed by
 * scripts/setup-local-swarm), run inside the page a {@link HeadlessChromium} shows, with the WCAG
 * 2.0/2.1 A and AA rules and axe's best practices. What it finds, as one line each.
 */
public final class Axe {

    public static final Path SCRIPT = Path.of("/usr/local/lib/ccci-axe/node_modules/axe-core/axe.min.js");

    /** One rule the page breaks: its id, how bad (minor, moderate, serious, critical), what it asks, where. */
    public record Violation(String rule, String impact, String help, List<String> where) {
        public boolean seriousOrWorse() {
            return "serious".equals(impact) || "critical".equals(impact);
        }

        @Override
        public String toString() {
            return impact + " " + rule + " (" + help + ") at " + where;
        }
    }

    private Axe() {
    }

    /** The violations axe finds on the page the browser shows now. */
    public static List<Violation> check(HeadlessChromium browser) throws IOException {
        if (!Files.isRegularFile(SCRIPT)) {
            throw new AssertionError(SCRIPT + " is missing: run scripts/setup-local-swarm, which installs axe-core from the"
                    + " npm registry.");
        }
        browser.script(Files.readString(SCRIPT, StandardCharsets.UTF_8));
        String json = (String) browser.asyncScript("const done = arguments[arguments.length - 1];"
                + "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']},"
                + " resultTypes: ['violations']}).then(r => done(JSON.stringify(r.violations)), e => done('error: ' + e));");
        if (json.startsWith("error: ")) {
            throw new AssertionError("axe-core could not check the page: " + json);
        }
        List<Violation> violations = new ArrayList<>();
        for (JsonNode v : new ObjectMapper().readTree(json)) {
            List<String> where = new ArrayList<>();
            v.path("nodes").forEach(n -> where.add(n.path("target").toString()));
            violations.add(new Violation(v.path("id").asText(), v.path("impact").asText(), v.path("help").asText(), where));
        }
        return violations;
    }
}
