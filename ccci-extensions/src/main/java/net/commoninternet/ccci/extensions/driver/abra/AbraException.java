package net.commoninternet.ccci.extensions.driver.abra;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * An abra command that failed, or printed something ccci cannot read. Either way the message
 * names the command and shows what abra said, so the run log alone explains the failure. The
 * output of a command that prints secret values is never quoted (only its {@code FATA} line).
 */
final class AbraException extends IOException {

    private static final long serialVersionUID = 1L;
    private static final int EXCERPT_LINES = 12;
    private static final int EXCERPT_WIDTH = 200;

    private final String command;
    private final int exitCode;
    private final String fatal;

    private AbraException(String command, int exitCode, String fatal, String message) {
        super(message);
        this.command = command;
        this.exitCode = exitCode;
        this.fatal = fatal;
    }

    /** A non-zero exit: abra's own {@code FATA} message if it printed one, else its first lines. */
    static AbraException failed(AbraCli.Invocation invocation, int exitCode, String output) {
        Optional<String> fatal = AbraCli.fatal(output);
        String said = fatal.map(f -> "FATA " + f)
                .orElse(invocation.sensitive() ? "(output withheld: it may hold secret values)" : excerpt(output));
        return new AbraException(invocation.name(), exitCode, fatal.orElse(null),
                invocation.name() + " exited " + exitCode + ": " + said);
    }

    /** Output that does not have the shape this contract expects. */
    static AbraException unparseable(AbraCli.Invocation invocation, String reason, String output) {
        String shown = invocation.sensitive() ? "(output withheld: it may hold secret values)" : excerpt(output);
        return new AbraException(invocation.name(), 0, null, invocation.name() + " printed output ccci cannot read ("
                + reason + "); check that `abra --version` is " + AbraCli.WRITTEN_FOR
                + ", the version this contract was written for. It printed:" + shown);
    }

    String command() {
        return command;
    }

    /** The exit code, or 0 when the command succeeded but its output could not be read. */
    int exitCode() {
        return exitCode;
    }

    /** abra's {@code FATA} message, when it printed one. */
    Optional<String> fatal() {
        return Optional.ofNullable(fatal);
    }

    private static String excerpt(String output) {
        List<String> lines = TerminalText.lines(output).stream().filter(l -> !l.isBlank()).collect(Collectors.toList());
        if (lines.isEmpty()) {
            return " (nothing)";
        }
        StringBuilder s = new StringBuilder();
        for (String line : lines.subList(0, Math.min(EXCERPT_LINES, lines.size()))) {
            s.append("\n  | ").append(line.length() > EXCERPT_WIDTH ? line.substring(0, EXCERPT_WIDTH) + "…" : line);
        }
        if (lines.size() > EXCERPT_LINES) {
            s.append("\n  | … ").append(lines.size() - EXCERPT_LINES).append(" more line(s)");
        }
        return s.toString();
    }
}
