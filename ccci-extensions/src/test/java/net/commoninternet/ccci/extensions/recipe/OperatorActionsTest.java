package net.commoninternet.ccci.extensions.recipe;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.lifecycle.UpgradeFrom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator upgrading from each base must do by hand, on a real recipe of four releases
 * (versions/ trees, fetched as a run fetches them): a key, a secret and a release note's manual step
 * added along the way are findings for the bases before them and never for the bases after.
 */
class OperatorActionsTest {

    @TempDir
    Path dir;

    private void version(String v, String env, String compose, Map<String, String> notes) throws Exception {
        Path tree = Files.createDirectories(dir.resolve("recipe/versions").resolve(v));
        Files.writeString(tree.resolve(".env.sample"), env);
        Files.writeString(tree.resolve("compose.yml"), compose);
        for (Map.Entry<String, String> note : notes.entrySet()) {
            Files.writeString(Files.createDirectories(tree.resolve("release")).resolve(note.getKey()), note.getValue());
        }
    }

    private static String compose(String... extra) {
        return "version: '3.8'\nservices:\n  app:\n    image: nginx:1\n    environment:\n      - DOMAIN=${DOMAIN}\n"
                + String.join("", extra);
    }

    @Test
    void aKeyAddedTwoReleasesAgoWithoutADefaultIsAnActionForTheBasesBeforeItAndNotAfter() throws Exception {
        String env1 = "TYPE=r\nDOMAIN=r.example.com\n";
        version("1.0.0+1", env1, compose(), Map.of());
        // 1.1.0 adds MAIL_FROM, used without a default, and TZ, defaulted in the compose; and a note of a manual step
        String env2 = env1 + "MAIL_FROM=noreply@example.com\nTZ=UTC\n#OPTIONAL=commented\n";
        String compose2 = compose("      - MAIL_FROM=${MAIL_FROM}\n      - TZ=${TZ:-Europe/Berlin}\n");
        Map<String, String> notes2 = Map.of("1.1.0+1", "Adds mail.\nYou must set MAIL_FROM in the app's .env by hand.\n");
        version("1.1.0+1", env2, compose2, notes2);
        // 1.2.0 adds a secret
        String compose3 = compose2 + "    secrets: [db_password]\nsecrets:\n  db_password:\n    external: true\n"
                + "    name: ${STACK_NAME}_db_password_${SECRET_DB_PASSWORD_VERSION}\n";
        version("1.2.0+1", env2 + "SECRET_DB_PASSWORD_VERSION=v1\n", compose3, notes2);
        // the head: a plain release note
        version("1.3.0+1", env2 + "SECRET_DB_PASSWORD_VERSION=v1\n", compose3,
                Map.of("1.1.0+1", notes2.get("1.1.0+1"), "1.3.0+1", "Bumps nginx.\n"));

        RecipeFetch fetch = new RecipeFetch(new ChildProcesses(Map.of()));
        RecipeFetch.Fetched tree = fetch.fetch(dir.resolve("recipe"), dir.resolve("tree"), null);
        UpgradePlan plan = UpgradePlan.resolve(fetch, tree, true, Optional.empty(), UpgradeFrom.parse("all").orElseThrow());

        Map<String, List<String>> actions = plan.bases().bases().stream().collect(Collectors.toMap(UpgradeBases.Base::release,
                b -> b.actions().stream().map(a -> a.kind() + ":" + a.subject()).toList()));
        assertThat(actions).containsOnlyKeys("1.2.0+1", "1.1.0+1", "1.0.0+1");
        assertThat(actions.get("1.0.0+1")).containsExactly("ENV_KEY:MAIL_FROM", "ENV_KEY:SECRET_DB_PASSWORD_VERSION",
                "SECRET:db_password", "RELEASE_NOTE:1.1.0+1");
        assertThat(actions.get("1.1.0+1")).containsExactly("ENV_KEY:SECRET_DB_PASSWORD_VERSION", "SECRET:db_password");
        assertThat(actions.get("1.2.0+1")).isEmpty();
        UpgradeBases.Base oldest = plan.bases().bases().get(2);
        assertThat(oldest.actions().get(0).sentence()).isEqualTo(".env.sample sets MAIL_FROM since this release and no compose"
                + " file gives it a default: add it to the app's .env before the upgrade.");
        assertThat(oldest.actions().get(3).sentence()).isEqualTo("the release note of 1.1.0+1 names a manual step: \"You must"
                + " set MAIL_FROM in the app's .env by hand.\".");
        // the tree is still at the head: nothing was checked out to read the bases
        assertThat(Files.readString(tree.dir().resolve("release/1.3.0+1"))).isEqualTo("Bumps nginx.\n");
    }

    @Test
    void aNoteIsAManualStepOnlyWhenItAsksForOne() {
        assertThat(OperatorActions.MANUAL.matcher("Bumps nginx to 1.25.").find()).isFalse();
        assertThat(OperatorActions.MANUAL.matcher("Run `abra app cmd <domain> app migrate` after the upgrade").find()).isTrue();
        assertThat(OperatorActions.MANUAL.matcher("The database must be migrated manually.").find()).isTrue();
    }
}
