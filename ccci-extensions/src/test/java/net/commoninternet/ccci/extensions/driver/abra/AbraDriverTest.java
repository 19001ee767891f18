package net.commoninternet.ccci.extensions.driver.abra;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AbraDriverTest {

    @TempDir
    Path bin;

    @Test
    void withoutAbraOnThePathTheRunStopsWithOneSentenceNamingBothWaysOut() {
        assertThatThrownBy(() -> AbraDriver.requireBinary(bin + ":/nonexistent"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("ccci.driver=abra needs the abra CLI on PATH: install abra, or run with"
                        + " -Dccci.driver=swarm (the embedded driver).");
    }

    @Test
    void anExecutableAbraOnThePathIsEnough() throws Exception {
        Files.createFile(bin.resolve("abra"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));

        assertThatCode(() -> AbraDriver.requireBinary("/nonexistent:" + bin)).doesNotThrowAnyException();
    }

    @Test
    void aNonExecutableAbraDoesNotCount() throws Exception {
        Files.createFile(bin.resolve("abra"));

        assertThatThrownBy(() -> AbraDriver.requireBinary(bin.toString())).isInstanceOf(IllegalStateException.class);
    }
}
