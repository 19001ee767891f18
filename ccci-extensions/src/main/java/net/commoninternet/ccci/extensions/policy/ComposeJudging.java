package net.commoninternet.ccci.extensions.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.commoninternet.ccci.extensions.policy.ComposeRules.Place;
import net.commoninternet.ccci.extensions.recipe.App;

/**
 * One judging of one app's resolved compose: what the rules need to know of the run (its recipe,
 * stack, domain and tree) and the findings so far, in file order.
 */
final class ComposeJudging {

    /** Why an unknown key is refused: the policy is an allowlist. */
    static final String UNKNOWN = "ccci does not know to be safe (a recipe's compose holds only the keys docs/security.md"
            + " lists, each with the values it accepts)";

    final String recipe;
    final String stack;
    final String domain;
    /** The recipe tree's real path: every file a compose names must be inside it, links followed. */
    final Path root;
    final JsonNode tree;
    private final List<DeployPolicy.Finding> found = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    ComposeJudging(App app, JsonNode tree) throws IOException {
        this.recipe = app.recipe();
        this.stack = app.stack();
        this.domain = app.domain();
        this.root = app.recipeDir().toRealPath();
        this.tree = tree;
    }

    List<DeployPolicy.Finding> findings() {
        return List.copyOf(found);
    }

    /** The lint findings: what the compose holds that nothing on the host acts on, each a sentence. */
    List<String> notes() {
        return List.copyOf(notes);
    }

    /** Something of the compose that nothing on the host reads or acts on: a lint finding, never a refusal. */
    void note(Place at, String value, String why) {
        notes.add(at.where() + " has " + value + " (" + at.key() + "), which " + why + ".");
    }

    /** A value ccci refuses at this place, with the reason and the fix for the sentence. */
    void refuse(Place at, String value, String what, String why, String fix) {
        found.add(new DeployPolicy.Finding(at.where(), at.key(), value, new DeployPolicy.Finding.Reason(what, why, fix)));
    }

    /** A key no rule names. */
    void unknown(Place at, JsonNode value) {
        refuse(at, ComposeRules.shown(value), "sets", UNKNOWN, "drop it from the compose.");
    }

    /** A known key whose value is not of a shape ccci accepts. */
    void unexpected(Place at, JsonNode value, String expected) {
        refuse(at, ComposeRules.shown(value), "sets", "is not a value ccci accepts there (" + expected + ")",
                "fix the value in the compose.");
    }

    /** A swarm object's own name: what this run makes is named {@code <stack>_...}. */
    boolean own(String name) {
        return name.startsWith(stack + "_");
    }

    /** Whether the service-level network key {@code name} is the shared proxy network. */
    boolean isProxy(String network) {
        JsonNode declared = tree.path("networks").path(network);
        return declared.path("external").asBoolean(false)
                && declared.path("name").asText(network).equals(DeployPolicy.PROXY_NETWORK);
    }

    /** Whether {@code file} (as the resolved compose names it, absolute), once every link is followed, is inside the tree. */
    boolean inside(String file) {
        Path normal = root.resolve(file).normalize();
        if (!normal.startsWith(root)) {
            return false;
        }
        try {
            return !Files.exists(normal) || normal.toRealPath().startsWith(root);
        } catch (IOException unreadable) {
            return false;
        }
    }
}
