package net.commoninternet.ccci.extensions.workspace;

import java.nio.file.Path;
import net.commoninternet.ccci.extensions.children.ChildProcesses;
import net.commoninternet.ccci.extensions.policy.DeployPolicy;
import net.commoninternet.ccci.extensions.recipe.FetchBound;
import net.commoninternet.ccci.extensions.recipe.RecipeFetch;
import org.apiguardian.api.API;

/**
 * The run's own place on the host, made before anything of the run exists on the engine: its
 * folder ({@code <runs dir>/<run id>/}), its ABRA_DIR, its run-scoped state files, and the child
 * processes that work in them (each started with that ABRA_DIR and the state files' paths), and
 * the deploy policy every compose of the run passes before anything of it exists on the engine.
 */
@API(status = API.Status.INTERNAL)
public record RunWorkspace(Path runDir, RunAbraDir abraDir, RunState state, ChildProcesses children, DeployPolicy policy) {

    /** Git in the run's own recipe trees, writing no more than the host lets a fetch write ({@code ccci.fetch.*}). */
    public RecipeFetch fetch() {
        return new RecipeFetch(children, FetchBound.of(policy.bounds()));
    }

    /** Where the embedded backup keeps this run's restic repository. */
    public Path backupDir() {
        return runDir.resolve("backup");
    }
}
