package net.commoninternet.ccci.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * The test needs a real Docker engine and swarm, as {@code scripts/setup-local-swarm} starts them
 * (it deploys, probes, tears down or kills real stacks and engines). JUnit tag {@code engine}: run
 * everything else with {@code mvn test -DexcludedGroups=engine}, only these with {@code -Dgroups=engine}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("engine")
public @interface RealEngine {
}
