package org.arenaplan.cli;

import picocli.CommandLine;

import java.nio.file.Path;

/**
 * The value of a flag that writes one file ({@code plan --out}, {@code --svg}, {@code --html},
 * {@code --json}): a name that ends in '/' names a folder, which {@link Path#of} would drop the
 * '/' of and so write a file of the folder's name; it is refused instead (exit 2: picocli's
 * {@code Invalid value for option '--svg': ...}).
 */
final class FileToWrite implements CommandLine.ITypeConverter<Path> {
    @Override
    public Path convert(String value) {
        if (namesAFolder(value))
            throw new CommandLine.TypeConversionException("'" + value + "' ends in '/', so it names a folder, but this flag writes one file; give a file name");
        return Path.of(value);
    }

    /** True when {@code value} ends in the name separator ('/', or the platform's), as a folder typed so. */
    static boolean namesAFolder(String value) {
        return value.length() > 1 && (value.endsWith("/") || value.endsWith(java.io.File.separator));
    }
}
