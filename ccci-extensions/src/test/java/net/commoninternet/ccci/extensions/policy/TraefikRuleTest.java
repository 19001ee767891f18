package net.commoninternet.ccci.extensions.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A router rule is judged by the hosts it can match: accepted exactly when every real host it can
 * match (in traefik v2's syntax and in v3's, unless the router names one) is the run's domain or a
 * subdomain of it. Each refused rule below can route a real host of someone else's; each accepted
 * one cannot.
 */
class TraefikRuleTest {

    private static final String DOMAIN = "app-abc123.ci.example.org";
    private static final Set<TraefikRule.Syntax> BOTH = Set.of(TraefikRule.Syntax.values());

    private static boolean confined(String rule) {
        return confined(rule, BOTH);
    }

    private static boolean confined(String rule, Set<TraefikRule.Syntax> syntaxes) {
        return HostLanguage.confined(TraefikRule.hosts(rule.replace("${DOMAIN}", DOMAIN).replace("${D}",
                DOMAIN.replace(".", "\\.")), syntaxes), DOMAIN);
    }

    @Test
    void aHostRegexpWhoseEveryMatchIsASubdomainOfTheRunsDomainIsAccepted() {
        for (String rule : List.of(
                // v2: mux templates, a variable is one label or its own pattern, the whole anchored
                "HostRegexp(`{subdomain:[a-z]+}.${DOMAIN}`)",
                "HostRegexp(`{subdomain}.${DOMAIN}`)",
                "HostRegexp(`{sub:[a-z0-9-]{1,63}}.${DOMAIN}`)",
                "HostRegexp(`{sub:(.+\\.)?}${DOMAIN}`)",
                "HostRegexp(`{any:.+}.${DOMAIN}`)",
                // v3: Go expressions, matched anywhere unless anchored
                "HostRegexp(`^[a-z]+\\.${D}$`)",
                "HostRegexp(`^.+\\.${D}$`)",
                "HostRegexp(`^(www|api|files)\\.${D}$`)",
                "HostRegexp(`(?i)^[A-Z0-9-]+\\.${D}$`)",
                "HostRegexp(`\\A(?P<sub>[^.]+)\\.${D}\\z`)",
                "HostRegexp(`\\.${D}$`)",
                "HostRegexp(\"^[a-z]+\\\\.app-abc123\\\\.ci\\\\.example\\\\.org$\")",
                // the boolean structure: && narrows, || joins, a negation or a path says nothing of the host
                "Host(`${DOMAIN}`) || HostRegexp(`{sub:[a-z]+}.${DOMAIN}`)",
                "HostRegexp(`{x:.*}`) && Host(`${DOMAIN}`)",
                "(PathPrefix(`/a`) || PathPrefix(`/b`)) && (Host(`${DOMAIN}`) || Host(`www.${DOMAIN}`))",
                "Host(`${DOMAIN}`) && !PathPrefix(`/admin`)",
                "HostSNI(`${DOMAIN}`)",
                "Host(`APP-ABC123.CI.Example.ORG`)")) {
            assertThat(confined(rule)).as(rule).isTrue();
        }
    }

    @Test
    void aRuleThatCanMatchAnotherHostIsRefused() {
        for (String rule : List.of(
                "HostRegexp(`{any:.+}`)",
                "HostRegexp(`{sub}.example.org`)",
                // unanchored v3: matches evil-app-abc123... and app-abc123...org.bank.com too
                "HostRegexp(`${D}`)",
                "HostRegexp(`[a-z]+\\.${D}`)",
                "HostRegexp(`^[a-z]+\\.${D}`)",
                // an unescaped dot matches any character: app-abc123xci.example.org is another name
                "HostRegexp(`^app-abc123.ci.example.org$`)",
                "HostRegexp(`^.*${D}$`)",
                "HostRegexp(`^(.+\\.)?${D}$|^bank\\.com$`)",
                "HostRegexp(`^[^x]+$`)",
                "HostRegexp(`{sub:[a-z]+}.${DOMAIN}`, `{other:.+}`)",
                "HostRegexp(`{sub:.*}${DOMAIN}`)",
                "Host(`${DOMAIN}`) || PathPrefix(`/`)",
                "!Host(`${DOMAIN}`)",
                "HostSNI(`*`)",
                "Host(`${DOMAIN}.evil.com`)",
                "Host(`evil${DOMAIN}`)",
                "Host(\"bank.example.com\")",
                "Host(\"${DOMAIN}\\x2ebank.com\")",
                "HostRegexp(`^10\\.0\\.0\\.[0-9]+$`)",
                "HostRegexp(`^\\[::1\\]$`)")) {
            assertThat(confined(rule)).as(rule).isFalse();
        }
    }

    /** A router that names its syntax is read in that one: each reading of the same text matches other hosts. */
    @Test
    void aRouterThatNamesItsRuleSyntaxIsReadInIt() {
        // a v2 template, read by v3 as a Go expression matched anywhere: only hosts holding '{', no real ones
        assertThat(confined("HostRegexp(`{sub:[a-z]+}.${DOMAIN}`)", Set.of(TraefikRule.Syntax.V3))).isTrue();
        // plain text is literal in v2 but a search in v3
        assertThat(confined("HostRegexp(`${DOMAIN}`)", Set.of(TraefikRule.Syntax.V2))).isTrue();
        assertThat(confined("HostRegexp(`${DOMAIN}`)", Set.of(TraefikRule.Syntax.V3))).isFalse();
    }

    @Test
    void aRuleCcciCannotReadIsRefusedWithTheReason() {
        for (String rule : List.of("Host(`${DOMAIN}`", "HostRegexp(`^(a$`)", "HostRegexp(`a{1,5000}`)", "HostRegexp(`\\y`)",
                "HostRegexp(`[z-a]`)", "Host(`a`) &&", "Host('a')", "HostRegexp(`{sub:[a-z]+`)")) {
            assertThatThrownBy(() -> confined(rule)).as(rule).isInstanceOf(IllegalArgumentException.class);
        }
        // an expression too large to judge is refused in bounded time, never judged in part
        assertThatThrownBy(() -> confined("HostRegexp(`" + "((a|b){1000}){1000}" + "`)"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too large");
    }
}
