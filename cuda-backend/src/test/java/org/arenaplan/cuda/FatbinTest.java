package org.arenaplan.cuda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.arenaplan.device.Kernels;
import org.junit.jupiter.api.Test;

/** The committed fatbin: current with the CUDA sources, and shipping SASS for sm_80/sm_90 plus PTX. */
class FatbinTest {
    private static final Path SOURCES = Path.of("src/main/cuda");

    @Test
    void stampMatchesTheCudaSourcesAndTheFatbin() throws Exception {
        KernelImage image = KernelImage.load();
        assertThat(image.sourcesSha256())
                .as("kernels.fatbin is stale: run cuda-backend/src/main/cuda/build-fatbin.sh and commit")
                .isEqualTo(sourcesSha256());
        assertThat(image.fatbinSha256()).isEqualTo(sha256(image.fatbin()));
    }

    @Test
    void shipsSassForSm80AndSm90AndPtxForNewerGpus() {
        List<String> archs = Fatbin.entries(KernelImage.load().fatbin()).stream().map(Fatbin.Entry::archName).toList();
        assertThat(archs).contains("sm_80", "sm_90", "compute_90");
    }

    @Test
    void everyKernelOfTheConventionIsInTheSm90Code() {
        byte[] fatbin = KernelImage.load().fatbin();
        Fatbin.Entry sm90 = Fatbin.entries(fatbin).stream().filter(e -> e.archName().equals("sm_90")).findFirst().orElseThrow();
        String elf = new String(fatbin, (int) sm90.payloadOffset(), (int) sm90.payloadBytes(), StandardCharsets.ISO_8859_1);
        assertThat(elf).startsWith("\u007fELF");
        for (String kernel : Kernels.ALL) assertThat(elf).as("kernel " + kernel).contains(".text." + kernel + "\0");
        for (String entry : CudaKernelTable.entries()) assertThat(elf).as("entry " + entry).contains(".text." + entry + "\0");
        for (String kernel : org.arenaplan.ir.OpRegistry.kernels()) {
            if (Kernels.SIM_ONLY.contains(kernel)) continue;   // refused by name (CudaKernelTable.spec); none today
            assertThat(elf).as("registry kernel " + kernel).contains(".text." + kernel + "\0");
        }
        assertThat(elf).contains(".text." + CudaKernelTable.SLOW_COPY + "\0");
    }

    @Test
    void driverNeededFollowsTheNvccThatBuiltIt() {
        KernelImage image = KernelImage.load();
        assertThat(image.requiredDriverVersion()).isEqualTo(Integer.parseInt(image.nvccVersion().split("\\.")[0]) * 1000
                + Integer.parseInt(image.nvccVersion().split("\\.")[1]) * 10);
        assertThat(KernelImage.driverVersionName(12040)).isEqualTo("12.4");
    }

    @Test
    void malformedFatbinsAreRejectedWithTheOffset() {
        assertThatThrownBy(() -> Fatbin.entries(new byte[20])).hasMessageContaining("not a fatbin");
        byte[] truncated = java.util.Arrays.copyOf(KernelImage.load().fatbin(), 100);
        assertThatThrownBy(() -> Fatbin.entries(truncated)).hasMessageContaining("truncated");
    }

    /** As sources-sha256.sh: for each *.cu / *.cuh in byte order of names, the name, a newline, the file. */
    private static String sourcesSha256() throws IOException, NoSuchAlgorithmException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        try (Stream<Path> files = Files.list(SOURCES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".cu") || p.toString().endsWith(".cuh"))
                    .sorted((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString())).toList()) {
                all.write((f.getFileName() + "\n").getBytes(StandardCharsets.UTF_8));
                all.write(Files.readAllBytes(f));
            }
        }
        return sha256(all.toByteArray());
    }

    private static String sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
