package net.commoninternet.ccci.extensions.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.commoninternet.ccci.api.CiKeys;
import net.commoninternet.ccci.api.Tier;
import net.commoninternet.ccci.extensions.recipe.App;
import net.commoninternet.ccci.extensions.recipe.EnvFile;
import net.commoninternet.ccci.extensions.recipe.TempApp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunHookContextTest {

    @TempDir
    Path root;

    private RunHookContext context(App app, Tier op) {
        return new RunHookContext(app, CiKeys.defaults(), op, Optional.empty(), Map.of());
    }

    @Test
    void installAndUpgradeHooksSetEnvInTheAppsEnvFile() throws Exception {
        App app = TempApp.create(root, "demo", Map.of(), "TYPE=demo", "GREETING=hello");

        context(app, Tier.INSTALL).setEnv("GREETING", "hi");
        context(app, Tier.UPGRADE).setEnv("NEW_FLAG", "1");

        assertThat(EnvFile.read(app.envFile()).values()).containsExactly(
                Map.entry("TYPE", "demo"), Map.entry("GREETING", "hi"), Map.entry("NEW_FLAG", "1"));
    }

    @Test
    void hooksOfOperationsThatDoNotDeployCannotSetEnvAndTheFileIsUntouched() throws Exception {
        App app = TempApp.create(root, "demo", Map.of(), "TYPE=demo");
        String before = Files.readString(app.envFile());

        for (Tier op : List.of(Tier.BACKUP, Tier.RESTORE)) {
            assertThatThrownBy(() -> context(app, op).setEnv("GREETING", "hi")).isExactlyInstanceOf(IllegalStateException.class)
                    .hasMessage("a " + op.id() + " hook cannot change the app's env: only install and upgrade deploy,"
                            + " so set it in a pre-install or pre-upgrade hook.");
        }
        assertThat(app.envFile()).content().isEqualTo(before);
    }

    @Test
    void aHookSeesTheAppsDomainAndNoLiveAppBeforeTheDeploy() throws Exception {
        App app = TempApp.create(root, "demo", Map.of(), "TYPE=demo");
        RunHookContext context = context(app, Tier.INSTALL);

        assertThat(context.domain()).isEqualTo("demo-abc123.ci.example.org");
        assertThat(context.baseUrl()).isEqualTo("https://demo-abc123.ci.example.org");
        assertThat(context.app()).isEmpty();
        assertThat(context.deps()).isEmpty();
    }
}
