package net.commoninternet.ccci.engine;

import java.util.List;
import net.commoninternet.ccci.spi.Driver;

/** Stand-ins of the two drivers ccci-extensions provides, so that discovery knows their ids here. */
final class TestDrivers {

    private TestDrivers() {
    }

    public static final class Swarm implements Driver {
        @Override
        public String id() {
            return "swarm";
        }

        @Override
        public List<String> lintRules() {
            return List.of("clean");
        }
    }

    public static final class Abra implements Driver {
        @Override
        public String id() {
            return "abra";
        }

        @Override
        public List<String> lintRules() {
            return List.of("abra-clean");
        }
    }
}
