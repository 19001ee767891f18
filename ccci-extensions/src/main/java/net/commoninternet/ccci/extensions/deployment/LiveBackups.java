package net.commoninternet.ccci.extensions.deployment;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Service;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import net.commoninternet.ccci.extensions.backup.BackupLabels;
import net.commoninternet.ccci.extensions.probe.ContainerExec;
import net.commoninternet.ccci.spi.Backups;

/** The app's backups by the run's driver, and what they hold as its backupbot labels and mounts say. */
record LiveBackups(Deployment deployment) implements Backups {

    @Override
    public boolean labelled() {
        return BackupLabels.capable(client(), deployment.deployed().stack());
    }

    /** Each backed-up service's places in its running container (inspected on the node that runs it). */
    @Override
    public List<Place> places() throws InterruptedException {
        String stack = deployment.deployed().stack();
        ContainerExec exec = deployment.exec();
        List<Place> places = new ArrayList<>();
        for (Service service : BackupLabels.services(client(), stack)) {
            String name = service.getSpec().getName();
            String container = exec.runningContainer(name);
            String compose = Deployment.composeName(stack, name);
            for (BackupLabels.Place place : BackupLabels.places(service, BackupLabels.mounts(exec.engineOf(container), container))) {
                places.add(new Place(compose, place.containerPath()));
            }
        }
        return places;
    }

    @Override
    public String backup() throws IOException, InterruptedException {
        return deployment.tools().driver().backup(deployment.deployed());
    }

    @Override
    public void restore(String snapshotId) throws IOException, InterruptedException {
        deployment.tools().driver().restore(deployment.deployed(), snapshotId);
    }

    private DockerClient client() {
        return deployment.tools().docker().client();
    }
}
