package org.arenaplan.onnx;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OnnxTensorFileTest {
    @TempDir
    Path dir;

    @Test
    void writesAndReadsBack() {
        Path p = dir.resolve("t.pb");
        OnnxTensorFile.write(p, "prob", new long[]{1, 3}, new float[]{0.5f, -2f, 1e-3f});
        OnnxTensorFile.FloatTensor t = OnnxTensorFile.read(p);
        assertThat(t.name()).isEqualTo("prob");
        assertThat(t.dims()).containsExactly(1, 3);
        assertThat(t.values()).containsExactly(0.5f, -2f, 1e-3f);
    }

    @Test
    void readsTheReferenceOutputOfASharedModel() {
        Path model = OnnxModelsTest.model("light_squeezenet.onnx");
        OnnxTensorFile.FloatTensor t = OnnxTensorFile.read(model.resolveSibling("light_squeezenet_output_0.pb"));
        assertThat(t.values()).hasSize(1000);
        for (float v : t.values()) assertThat(v).isCloseTo(0.001f, org.assertj.core.api.Assertions.within(1e-6f));
    }

    @Test
    void aTruncatedTensorFileIsAClearError() throws Exception {
        Path p = dir.resolve("t.pb");
        OnnxTensorFile.write(p, "x", new long[]{4}, new float[]{1, 2, 3, 4});
        byte[] b = Files.readAllBytes(p);
        Files.write(p, java.util.Arrays.copyOf(b, b.length - 3));
        assertThatThrownBy(() -> OnnxTensorFile.read(p)).isInstanceOf(OnnxException.class).hasMessageContaining("truncated");
    }
}
