import CFFmpeg
import Glibc

/// Makes decoded frames (AVFrame, any pixel format) into what an output draws
/// (``VideoFrame``): the planes video.frag converts, or BGRA libswscale converts with the
/// frame's own matrix and range. Holds libswscale's contexts between frames; used on one
/// thread at a time (a video's decoding thread).
final class FrameConverter {
    private var scaler: OpaquePointer?
    /// The BGRA converter (``VideoConversion/swscale``) and the colours it was set up for.
    private var converter: OpaquePointer?
    private var converterColours: (bt709: Bool, fullRange: Bool)?

    deinit {
        if let scaler { sws_freeContext(scaler) }
        if let converter { sws_freeContext(converter) }
    }

    /// The decoded `frame` in the form `conversion` asks for, in memory from `pool`:
    /// planes the shader samples (copied where it is 8-bit 4:2:0, else brought to that by
    /// libswscale), or BGRA that libswscale converts with the frame's own matrix and range.
    func picture(of frame: UnsafeMutablePointer<AVFrame>, number: Int, conversion: VideoConversion,
                 pool: VideoFrameMemory.Pool) -> VideoFrame? {
        let f = frame.pointee
        let (width, height) = (Int(f.width), Int(f.height))
        guard PictureLimits.allows(width: width, height: height),
              let memory = pool.take(VideoFrame.bytes(width: width, height: height, conversion: conversion)) else { return nil }
        let colours = FrameConverter.colours(of: f)
        let made: Bool
        if conversion == .swscale {
            // Bottom row first: libswscale writes the rows upwards through a negative
            // stride, so GL gets them in its own order and no copy flips them.
            let bottom = memory.bytes.assumingMemoryBound(to: UInt8.self) + (height - 1) * width * 4
            made = packed(frame, as: AV_PIX_FMT_BGRA, colours: colours, into: bottom, stride: -Int32(width * 4))
        } else {
            made = planes(of: frame, into: memory.bytes)
        }
        guard made else { return nil }
        return VideoFrame(number: number, width: width, height: height, form: conversion == .swscale ? .bgra : .planes,
                            memory: memory, bt709: colours.bt709, fullRange: colours.fullRange)
    }

    /// The decoded `frame` as 8-bit RGBA, rows top first, converted with its own matrix
    /// and range: a still's pixels (a file FFmpeg reads that holds one frame). Nil where
    /// libswscale cannot convert it or it is larger than glout holds.
    func rgba(of frame: UnsafeMutablePointer<AVFrame>) -> [UInt8]? {
        let (width, height) = (Int(frame.pointee.width), Int(frame.pointee.height))
        guard PictureLimits.allows(width: width, height: height) else { return nil }
        var made = false
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            made = packed(frame, as: AV_PIX_FMT_RGBA, colours: FrameConverter.colours(of: frame.pointee),
                          into: buffer.baseAddress!, stride: Int32(width * 4))
            count = made ? width * height * 4 : 0
        }
        return made ? pixels : nil
    }

    /// BT.709 (else BT.601), and full range (else the video range), as the frame says or,
    /// where it does not, as its size suggests. RGB and palette frames are full range.
    private static func colours(of f: AVFrame) -> (bt709: Bool, fullRange: Bool) {
        let format = AVPixelFormat(rawValue: f.format)
        let flags = av_pix_fmt_desc_get(format)?.pointee.flags ?? 0
        let rgb = flags & UInt64(AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL) != 0
        let full = rgb || format == AV_PIX_FMT_YUVJ420P || format == AV_PIX_FMT_YUVJ444P || format == AV_PIX_FMT_YUVJ422P
            || f.color_range == AVCOL_RANGE_JPEG
        let bt709 = f.colorspace == AVCOL_SPC_BT709
            || (f.colorspace != AVCOL_SPC_BT470BG && f.colorspace != AVCOL_SPC_SMPTE170M && f.height >= 720)
        return (bt709, full)
    }

    /// Y, then U and V interleaved, into `out`.
    private func planes(of frame: UnsafeMutablePointer<AVFrame>, into out: UnsafeMutableRawPointer) -> Bool {
        let f = frame.pointee
        let (width, height) = (Int(f.width), Int(f.height))
        let (cw, ch) = ((width + 1) / 2, (height + 1) / 2)
        let luma = out.assumingMemoryBound(to: UInt8.self)
        let pairs = luma + width * height
        let format = AVPixelFormat(rawValue: f.format)
        if format == AV_PIX_FMT_YUV420P || format == AV_PIX_FMT_YUVJ420P {
            guard let y = f.data.0, let u = f.data.1, let v = f.data.2 else { return false }
            FrameConverter.copy(y, stride: Int(f.linesize.0), width: width, height: height, into: luma)
            FrameConverter.interleave(u, v, strides: (Int(f.linesize.1), Int(f.linesize.2)), width: cw, height: ch, into: pairs)
            return true
        }
        // Another format: to 4:2:0 first, the U and V planes apart, then interleaved.
        scaler = sws_getCachedContext(scaler, f.width, f.height, format, f.width, f.height, AV_PIX_FMT_YUV420P,
                                      SWS_BILINEAR, nil, nil, nil)
        guard let scaler else { return false }
        var blue = [UInt8](repeating: 0, count: cw * ch)
        var red = [UInt8](repeating: 0, count: cw * ch)
        let done = blue.withUnsafeMutableBufferPointer { b in
            red.withUnsafeMutableBufferPointer { r in
                guard FrameConverter.scale(frame, with: scaler, into: [luma, b.baseAddress, r.baseAddress, nil],
                                         strides: [Int32(width), Int32(cw), Int32(cw), 0]) > 0 else { return false }
                FrameConverter.interleave(b.baseAddress!, r.baseAddress!, strides: (cw, cw), width: cw, height: ch, into: pairs)
                return true
            }
        }
        return done
    }

    /// `frame` as one plane of 4-byte pixels in `format` (BGRA, RGBA) from `out`, rows
    /// `stride` bytes apart (negative: upwards), with `colours`' matrix and range.
    private func packed(_ frame: UnsafeMutablePointer<AVFrame>, as format: AVPixelFormat,
                        colours: (bt709: Bool, fullRange: Bool), into out: UnsafeMutablePointer<UInt8>, stride: Int32) -> Bool {
        let f = frame.pointee
        let previous = converter
        // Same size: libswscale's unscaled conversions, its SIMD code where the CPU has it.
        converter = sws_getCachedContext(converter, f.width, f.height, AVPixelFormat(rawValue: f.format), f.width, f.height,
                                         format, SWS_POINT, nil, nil, nil)
        guard let converter else { return false }
        if converter != previous || converterColours.map({ $0 != colours }) ?? true {
            // The frame's matrix and range in, full-range RGB out (the table for the
            // output matters only to a Y'CbCr output).
            let matrix = sws_getCoefficients(colours.bt709 ? SWS_CS_ITU709 : SWS_CS_ITU601)
            sws_setColorspaceDetails(converter, matrix, colours.fullRange ? 1 : 0, matrix, 1, 0, 1 << 16, 1 << 16)
            converterColours = colours
        }
        return FrameConverter.scale(frame, with: converter, into: [out, nil, nil, nil], strides: [stride, 0, 0, 0]) > 0
    }

    /// sws_scale of the whole of `frame` into `planes` with `strides` (four each).
    private static func scale(_ frame: UnsafeMutablePointer<AVFrame>, with context: OpaquePointer,
                              into planes: [UnsafeMutablePointer<UInt8>?], strides: [Int32]) -> Int32 {
        var planes = planes, strides = strides
        var source = frame.pointee.data
        var sourceStrides = frame.pointee.linesize
        return withUnsafePointer(to: &source) { s in
            withUnsafePointer(to: &sourceStrides) { st in
                s.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { sp in
                    st.withMemoryRebound(to: Int32.self, capacity: 8) { stp in
                        sws_scale(context, sp, stp, 0, frame.pointee.height, &planes, &strides)
                    }
                }
            }
        }
    }

    /// U and V, two planes of `width` x `height` samples, as pairs into `pairs` (rows of
    /// `2 * width` bytes).
    static func interleave(_ u: UnsafePointer<UInt8>, _ v: UnsafePointer<UInt8>, strides: (Int, Int), width: Int,
                           height: Int, into pairs: UnsafeMutablePointer<UInt8>) {
        for row in 0..<height {
            let (a, b, o) = (u + row * strides.0, v + row * strides.1, pairs + row * 2 * width)
            for i in 0..<width {
                o[2 * i] = a[i]
                o[2 * i + 1] = b[i]
            }
        }
    }

    private static func copy(_ plane: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int,
                             into pixels: UnsafeMutablePointer<UInt8>) {
        for row in 0..<height {
            (pixels + row * width).update(from: plane + row * stride, count: width)
        }
    }
}
