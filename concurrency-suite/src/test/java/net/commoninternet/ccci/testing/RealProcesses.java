package net.commoninternet.ccci.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * The test starts real child processes (helper JVMs from {@code testing.helpers}, shells, git),
 * sends real signals or takes real kernel flocks, and needs no Docker engine. JUnit tag
 * {@code processes}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("processes")
public @interface RealProcesses {
}
