package net.commoninternet.ccci.engine;

import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/** The root of the ccci tree; its children are recipe runs. */
final class CcciEngineDescriptor extends EngineDescriptor implements Node<CcciExecutionContext> {

    private final Plugins plugins;

    CcciEngineDescriptor(UniqueId uniqueId, Plugins plugins) {
        super(uniqueId, "ccci");
        this.plugins = plugins;
    }

    Plugins plugins() {
        return plugins;
    }
}
