package net.commoninternet.ccci.extensions.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A traefik port label that is not a port is one sentence naming the service, the label and the fix. */
class PortLabelTest {

    private static final String LABEL = "traefik.http.services.app.loadbalancer.server.port";

    @Test
    void aPortLabelThatIsNotANumberIsOneSentenceNamingTheFix() {
        for (String bad : new String[] {"http", "80a", "", "0", "65536", "99999999999"}) {
            assertThatThrownBy(() -> HttpProbe.port("x_app", LABEL, bad)).as(bad)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("service x_app has label " + LABEL + "=" + bad + ", which is not a port number: set it"
                            + " to the port the service listens on (1-65535), for example " + LABEL + "=80.");
        }
    }

    @Test
    void aPortIsReadWithSurroundingSpace() {
        assertThat(HttpProbe.port("x_app", LABEL, " 8080 ")).isEqualTo(8080);
    }
}
