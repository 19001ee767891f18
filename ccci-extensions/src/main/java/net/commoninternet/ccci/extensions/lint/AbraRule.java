package net.commoninternet.ccci.extensions.lint;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * abra's recipe lint rules ({@code coopcloud.tech/abra/pkg/lint}, {@code LintRules}), each under its
 * ref and level with abra's description and how-to-resolve, and the check name a maintainer
 * recognises: the ref and the rule's function without its {@code Lint} prefix
 * ({@code LintMetadataFilledIn} is {@code R007-metadata-filled-in}). Both drivers name their LINT
 * checks from here, so a rule reads the same whoever lints.
 *
 * <p>Level as abra treats it: a {@code warn} rule that fails is shown and the deploy goes on (a
 * finding); an {@code error} rule that fails is "critical", {@code abra app deploy} refuses the
 * recipe ({@code LintForErrors}), so the check fails. Where this list comes from, and what of it is
 * recalled rather than read: docs/tiers.md, "abra's rules".
 */
@API(status = API.Status.INTERNAL)
public enum AbraRule {
    R001(false, "compose-version", new Text("compose config has expected version", "ensure 'version: \"3.8\"' in compose configs")),
    R002(false, "healthchecks", new Text("healthcheck enabled for all services", "wire up healthchecks")),
    R003(false, "all-images-tagged", new Text("all images use a tag", "tag all images with stable tags")),
    R004(false, "no-unstable-tags", new Text("no unstable tags", "tag all images with stable tags")),
    R005(false, "semver-like-tags", new Text("tags use semver-like format", "use semver-like tags")),
    R006(false, "has-published-version", new Text("has published catalogue version", "publish a recipe version to the catalogue")),
    R007(false, "metadata-filled-in", new Text("README.md metadata filled in", "fill out all the metadata")),
    R008(true, "env-config-present", new Text(".env.sample provided", "create an example .env.sample")),
    R009(true, "app-service", new Text("one service named 'app'", "name a service 'app'")),
    R010(true, "traefik-enabled", new Text("traefik routing enabled", "include \"traefik.enable=true\" deploy label")),
    R011(true, "image-present", new Text("all services have images", "ensure \"image: ...\" set on all services")),
    R012(true, "abra-sh-vendors", new Text("config version are vendored", "vendor config versions in an abra.sh")),
    R013(false, "has-recipe-repo", new Text("git.coopcloud.tech repo exists", "upload your recipe to git.coopcloud.tech/coop-cloud/...")),
    R014(true, "valid-tags", new Text("only annotated tags used for recipe version", "replace lightweight tags with annotated tags")),
    R015(false, "secret-lengths", new Text("long secret names", "reduce length of secret names to 12 chars")),
    R016(true, "deploy-labels-present", new Text("deploy labels stanza present", "include \"deploy: labels: ...\" stanza"));

    /** abra's words for a rule: its description and how to resolve it. */
    private record Text(String description, String howToResolve) {
    }

    private final boolean critical;
    private final String slug;
    private final String description;
    private final String howToResolve;

    AbraRule(boolean critical, String slug, Text text) {
        this.critical = critical;
        this.slug = slug;
        this.description = text.description();
        this.howToResolve = text.howToResolve();
    }

    /** {@code R007}. */
    public String ref() {
        return name();
    }

    /** The LINT check's name: {@code R007-metadata-filled-in}. */
    public String check() {
        return name() + "-" + slug;
    }

    /** abra's level: {@code error} (critical: abra will not deploy) or {@code warn}. */
    public String level() {
        return critical ? "error" : "warn";
    }

    public boolean critical() {
        return critical;
    }

    public String description() {
        return description;
    }

    public String howToResolve() {
        return howToResolve;
    }

    /**
     * The reason a person reads: abra's how-to-resolve first, then the rule and what was found,
     * e.g. {@code ensure "image: ..." set on all services (R011 all services have images, error): db has no image}.
     */
    public String reason(String found) {
        return howToResolve + " (" + name() + " " + description + ", " + level() + ")" + (found == null || found.isEmpty() ? "" : ": " + found);
    }

    /** The rule of a ref abra printed ({@code r014} too), if this catalogue lists it. */
    public static Optional<AbraRule> of(String ref) {
        return Arrays.stream(values()).filter(r -> r.name().equals(ref.toUpperCase(Locale.ROOT))).findFirst();
    }
}
