package org.arenaplan.gpu;

import org.arenaplan.cuda.Cuda;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Enables {@link GpuTest}s only where {@link Cuda#isAvailable()}; the skip reason is the probe's cause, printed once. */
public final class GpuCondition implements ExecutionCondition {
    private static volatile boolean printed;

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (Cuda.isAvailable()) return ConditionEvaluationResult.enabled("CUDA available: " + Cuda.info().deviceName());
        String reason = "skipped, no usable GPU: " + Cuda.unavailabilityCause().getMessage();
        if (!printed) {
            printed = true;
            System.out.println("[gpu tests] " + reason);
        }
        return ConditionEvaluationResult.disabled(reason);
    }
}
