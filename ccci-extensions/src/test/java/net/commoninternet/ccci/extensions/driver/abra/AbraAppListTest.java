package net.commoninternet.ccci.extensions.driver.abra;

import static net.commoninternet.ccci.extensions.driver.abra.AbraFixtures.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.commoninternet.ccci.extensions.driver.abra.AbraCli.AppRow;
import net.commoninternet.ccci.extensions.driver.abra.AbraCli.Invocation;
import org.junit.jupiter.api.Test;

/** abra app ls -m: the format is recalled, not verified (see PROVENANCE.md); the strictness is. */
class AbraAppListTest {

    private static final Invocation LS = AbraFixtures.CLI.appList();

    private static List<AppRow> apps(String output) throws AbraException {
        return AbraCli.appList(LS, output);
    }

    @Test
    void everyAppOfEveryServer() throws AbraException {
        assertThat(apps(read("app-ls-machine.constructed.json"))).containsExactly(
                new AppRow("default", "cust-1a2b3c.ci.commoninternet.net", "custom-html", "deployed", "1.7.0+1.27.2"),
                new AppRow("default", "warm-keycloak.ci.commoninternet.net", "keycloak", "deployed", "10.1.0+26.0.5"));
    }

    @Test
    void logLinesAroundTheDocumentAreSkipped() throws AbraException {
        String noisy = "WARN catalogue is stale\n" + read("app-ls-machine.constructed.json") + "INFO done\n";
        assertThat(apps(noisy)).hasSize(2);
    }

    @Test
    void noServersIsNoApps() throws AbraException {
        assertThat(apps("{}\n")).isEmpty();
    }

    @Test
    void noJsonIsAnError() {
        assertThatThrownBy(() -> apps("FATA unable to read servers\n")).isInstanceOf(AbraException.class)
                .hasMessageContaining("abra app ls printed output ccci cannot read (no JSON object)");
    }

    @Test
    void truncatedJsonIsAnError() {
        String cut = read("app-ls-machine.constructed.json").substring(0, 120);
        assertThatThrownBy(() -> apps(cut)).isInstanceOf(AbraException.class).hasMessageContaining("invalid JSON");
    }

    @Test
    void aServerWithoutAnAppListIsAnError() {
        assertThatThrownBy(() -> apps("{\"default\": {\"appCount\": 1}}")).isInstanceOf(AbraException.class)
                .hasMessageContaining("server default has no \"apps\" list");
    }

    @Test
    void anAppWithoutADomainIsAnError() {
        String noDomain = read("app-ls-machine.constructed.json").replace("\"domain\":\"warm-keycloak.ci.commoninternet.net\",", "");
        assertThatThrownBy(() -> apps(noDomain)).isInstanceOf(AbraException.class)
                .hasMessageContaining("an app of default has no domain");
    }

    @Test
    void aJsonArrayIsNotAServerMap() {
        assertThatThrownBy(() -> apps("{\"apps\": []}\n[1]")).isInstanceOf(AbraException.class)
                .hasMessageContaining("server apps has no \"apps\" list");
        assertThatThrownBy(() -> apps("[{\"domain\": \"x\"}]")).isInstanceOf(AbraException.class)
                .hasMessageContaining("no JSON object");
    }
}
