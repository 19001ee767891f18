package net.commoninternet.ccci.extensions.tiers;

import net.commoninternet.ccci.extensions.docker.DockerEngine;

/** ArchitectureTest's fixture: a tier that reaches the swarm around the SPI, what no tier may do. */
final class WrongArrowFromATier {
    String engine(DockerEngine docker) {
        return docker.host();
    }
}
