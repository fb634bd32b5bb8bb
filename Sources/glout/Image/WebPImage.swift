import CWebP
import WaylandOutputs

/// What a WebP file is, from its header (libwebp's WebPGetFeatures).
enum WebPFile {
    /// RIFF's header with the WEBP form type.
    static func isWebP(_ start: some Collection<UInt8>) -> Bool {
        let bytes = Array(start.prefix(12))
        return bytes.count == 12 && bytes[0..<4].elementsEqual("RIFF".utf8) && bytes[8..<12].elementsEqual("WEBP".utf8)
    }

    /// Whether `file` holds an animation (else a still); errors name the file and libwebp's reason.
    static func isAnimated(_ file: HeldBytes, path: String) throws -> Bool {
        var features = WebPBitstreamFeatures()
        let status = withExtendedLifetime(file) { WebPGetFeatures(file.typed, file.count, &features) }
        guard status == VP8_STATUS_OK else { throw failure(path, status) }
        return features.has_animation != 0
    }

    static func failure(_ path: String, _ status: VP8StatusCode) -> GloutError {
        GloutError("--content \(Log.printable(path)): not a WebP glout can read (libwebp: \(reason(status)))")
    }

    /// libwebp's status, in words.
    static func reason(_ status: VP8StatusCode) -> String {
        switch status {
        case VP8_STATUS_OUT_OF_MEMORY: "out of memory"
        case VP8_STATUS_INVALID_PARAM: "invalid parameter"
        case VP8_STATUS_BITSTREAM_ERROR: "bitstream error"
        case VP8_STATUS_UNSUPPORTED_FEATURE: "unsupported feature"
        case VP8_STATUS_NOT_ENOUGH_DATA: "not enough data: the file is cut short"
        default: "status \(status.rawValue)"
        }
    }
}

extension ContentImage {
    /// Decodes a still WebP (lossy or lossless, with or without alpha) with libwebp.
    init(webp file: HeldBytes, path: String) throws {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw GloutError("--content \(Log.printable(path)): this libwebp does not match the one glout was built with")
        }
        let pixels: [UInt8] = try withExtendedLifetime(file) {
            let read = WebPGetFeatures(file.typed, file.count, &config.input)
            guard read == VP8_STATUS_OK else { throw WebPFile.failure(path, read) }
            let (width, height) = (Int(config.input.width), Int(config.input.height))
            guard PictureLimits.allows(width: width, height: height) else {
                throw ContentImage.tooLarge(path, width: width, height: height)
            }
            var status = VP8_STATUS_OK
            let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
                // Into our own memory: libwebp writes the rows during the call and keeps nothing.
                config.output.colorspace = MODE_RGBA
                config.output.is_external_memory = 1
                config.output.u.RGBA.rgba = buffer.baseAddress
                config.output.u.RGBA.stride = Int32(width * 4)
                config.output.u.RGBA.size = width * height * 4
                status = WebPDecode(file.typed, file.count, &config)
                WebPFreeDecBuffer(&config.output)
                count = width * height * 4
            }
            guard status == VP8_STATUS_OK else { throw WebPFile.failure(path, status) }
            return pixels
        }
        self.init(path: path, width: Int(config.input.width), height: Int(config.input.height), pixels: pixels)
    }
}
