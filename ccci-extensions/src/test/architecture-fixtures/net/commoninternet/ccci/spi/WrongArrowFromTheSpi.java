package net.commoninternet.ccci.spi;

import net.commoninternet.ccci.lifecycle.RunSettings;

/** ArchitectureTest's fixture: the SPI handing out the internal settings, what it may not. */
final class WrongArrowFromTheSpi {
    String runId(RunSettings settings) {
        return settings.runId();
    }
}
