package net.commoninternet.ccci.engine;

import net.commoninternet.ccci.extensions.run.RecipeCiRun;

/** ArchitectureTest's fixture: the engine naming the lifecycle it should find through ServiceLoader. */
final class WrongArrowFromTheEngine {
    Object lifecycle() {
        return new RecipeCiRun();
    }
}
