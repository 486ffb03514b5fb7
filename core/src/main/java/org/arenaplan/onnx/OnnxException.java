package org.arenaplan.onnx;

import org.arenaplan.io.InputException;

/** An ONNX file that cannot be imported; the message names the file, node, op and what is missing. */
public class OnnxException extends InputException {
    public OnnxException(String message) {
        super(message);
    }

    public OnnxException(String message, Throwable cause) {
        super(message, cause);
    }
}
