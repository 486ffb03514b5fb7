package org.arenaplan.gpu;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/** A test that needs a usable CUDA GPU: tagged {@code gpu}, skipped with the probe's reason elsewhere. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("gpu")
@ExtendWith(GpuCondition.class)
public @interface GpuTest {
}
