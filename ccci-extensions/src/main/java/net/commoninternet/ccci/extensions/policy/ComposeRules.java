package net.commoninternet.ccci.extensions.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The shapes an allowlist of compose keys is written in ({@link ComposeAllowlist}): what one place
 * of the resolved compose may hold. A place is judged whole: every key of a mapping is one the
 * rule knows, or a finding; every value has the shape the rule accepts, or a finding. Nothing
 * passes by being unknown.
 */
final class ComposeRules {

    private ComposeRules() {
    }

    /** Where a value sits: {@code where} names the object for the sentence ({@code service app}), {@code key} the path within it. */
    record Place(String where, String key) {
        Place at(String child) {
            return new Place(where, key.isEmpty() ? child : key + "." + child);
        }
    }

    /** What one place may hold; a value it does not accept becomes a finding in {@code judging}. */
    @FunctionalInterface
    interface Rule {
        void judge(ComposeJudging judging, Place at, JsonNode value);
    }

    /** The value of an unknown key, as a sentence shows it. */
    static String shown(JsonNode value) {
        return value.isValueNode() ? value.asText() : value.toString();
    }

    /**
     * A mapping whose keys are exactly {@code known}'s (an {@code x-} extension key is allowed with
     * any value: the CLI and the engine give it no meaning, and ccci deploys without it); any other
     * key is a finding naming it.
     */
    static Rule keys(Map<String, Rule> known) {
        return (judging, at, value) -> {
            if (!value.isObject()) {
                judging.unexpected(at, value, "a mapping");
                return;
            }
            value.fields().forEachRemaining(field -> {
                Rule rule = known.get(field.getKey());
                if (rule != null) {
                    rule.judge(judging, at.at(field.getKey()), field.getValue());
                } else if (!field.getKey().startsWith("x-")) {
                    judging.unknown(at.at(field.getKey()), field.getValue());
                }
            });
        };
    }

    /** A list whose every item {@code item} accepts. */
    static Rule each(Rule item) {
        return (judging, at, value) -> {
            if (!value.isArray()) {
                judging.unexpected(at, value, "a list");
                return;
            }
            value.forEach(element -> item.judge(judging, at, element));
        };
    }

    /** A mapping with names of the recipe's choosing as keys, whose every value {@code item} accepts. */
    static Rule mapOf(Rule item) {
        return (judging, at, value) -> {
            if (!value.isObject()) {
                judging.unexpected(at, value, "a mapping");
                return;
            }
            value.fields().forEachRemaining(field -> item.judge(judging, at, field.getValue()));
        };
    }

    /** Any value: the key acts only inside the service's own container (its command, its environment, ...). */
    static Rule any() {
        return (judging, at, value) -> {
        };
    }

    static Rule text() {
        return accepting(JsonNode::isTextual, "a string");
    }

    static Rule bool() {
        return accepting(value -> value.isBoolean() || value.isTextual() && Set.of("true", "false").contains(value.asText()),
                "true or false");
    }

    static Rule integer() {
        return accepting(value -> value.isIntegralNumber() || value.isTextual() && value.asText().matches("\\d{1,18}"),
                "a whole number");
    }

    static Rule number() {
        return accepting(value -> value.isNumber() || value.isTextual() && value.asText().matches("\\d{1,9}(\\.\\d{1,9})?"),
                "a number");
    }

    /** One of {@code values} (as the CLI prints it). */
    static Rule oneOf(String... values) {
        Set<String> accepted = Set.of(values);
        return accepting(value -> value.isValueNode() && accepted.contains(value.asText()), "one of " + String.join(", ",
                List.of(values)));
    }

    static Rule accepting(Predicate<JsonNode> accepts, String expected) {
        return (judging, at, value) -> {
            if (!accepts.test(value)) {
                judging.unexpected(at, value, expected);
            }
        };
    }

    /** A key ccci knows and refuses, whatever its value (unless {@code harmless} accepts it): its own reason and fix. */
    static Rule refused(String what, String why, String fix, Predicate<JsonNode> harmless) {
        return (judging, at, value) -> {
            if (!harmless.test(value)) {
                judging.refuse(at, shown(value), what, why, fix);
            }
        };
    }
}
