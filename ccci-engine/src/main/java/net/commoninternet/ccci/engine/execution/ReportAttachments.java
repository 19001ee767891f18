package net.commoninternet.ccci.engine.execution;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import net.commoninternet.ccci.lifecycle.RunPlan;
import org.apiguardian.api.API;
import org.junit.platform.commons.JUnitException;
import org.junit.platform.engine.EngineExecutionListener;
import org.junit.platform.engine.OutputDirectoryCreator;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.reporting.FileEntry;

/**
 * Files attached to nodes of the test report, the way JUnit expects an engine to publish them:
 * copied into the node's own output directory (so the report, whose entries are relative to the
 * output root, stays self-contained and a later change to the original cannot alter it), then
 * announced to the execution listener, which Open Test Reporting turns into an attachment of
 * that node. A file of the same name attached twice to one node replaces the first.
 */
@API(status = API.Status.INTERNAL)
public final class ReportAttachments {

    private final EngineExecutionListener listener;
    private final OutputDirectoryCreator outputs;

    public ReportAttachments(EngineExecutionListener listener, OutputDirectoryCreator outputs) {
        this.listener = listener;
        this.outputs = outputs;
    }

    /** The reporting output folder, if the launcher writes outputs (JUnit's test kit does not). */
    public Optional<Path> root() {
        try {
            return Optional.of(outputs.getRootDirectory());
        } catch (JUnitException noOutputs) {
            return Optional.empty();
        }
    }

    public RunPlan.Attachments to(TestDescriptor node) {
        return (file, mediaType) -> {
            Path copy = outputs.createOutputDirectory(node).resolve(file.getFileName().toString());
            Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
            listener.fileEntryPublished(node, FileEntry.from(copy, mediaType));
        };
    }
}
