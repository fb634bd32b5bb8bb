import Foundation

/// Clips ffmpeg makes here, each frame showing its number in binary (seven columns, bit 0
/// on the left, and an eighth column always white), so that a screenshot tells which
/// frame reached the screen.
enum CodedClip {
    /// Makes `path` with ffmpeg: `seconds` of 320x180 H.264 at `fps`, B-frames and all.
    /// `halves`: 640x180, its left half coding the frame number N as above and its right
    /// half 127 - N, so that each half of a span tells which frame and which half it is.
    static func make(at path: String, fps: Int = 24, seconds: Int = 3, halves: Bool = false,
                     codec: [String] = ["-c:v", "libx264", "-g", "12", "-bf", "2"], pixelFormat: String = "yuv420p") throws {
        let columns = halves
            ? "if(lt(mod(floor(X*16/W)\\,8)\\,7)\\,if(bitand(if(lt(X\\,W/2)\\,N\\,127-N)\\,pow(2\\,mod(floor(X*16/W)\\,8)))"
                + "\\,235\\,16)\\,235)"
            : "if(lt(X\\,W*7/8)\\,if(bitand(N\\,pow(2\\,floor(X*8/W)))\\,235\\,16)\\,235)"
        let filter = "nullsrc=s=\(halves ? "640x180" : "320x180"):r=\(fps):d=\(seconds),format=yuv420p,"
            + "geq=lum='\(columns)':cb=128:cr=128"
        let made = try Child("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", filter] + codec
                             + ["-pix_fmt", pixelFormat, path]).wait()
        guard made.status == 0 else { throw HarnessError("ffmpeg could not make \(path): \(made.stderr)") }
    }

    /// The frame number a screenshot of `width` shows, nil when it shows no coded frame
    /// (black, or the marker column not white).
    static func frameNumber(_ screen: Image, width: Int, row: Int) -> Int? {
        func bit(_ column: Int) -> Bool? {
            let p = screen.pixel(width * column / 8 + width / 16, row)
            let level = (p.r + p.g + p.b) / 3
            return level > 200 ? true : level < 55 ? false : nil
        }
        guard bit(7) == true else { return nil }
        var number = 0
        for column in 0..<7 {
            guard let on = bit(column) else { return nil }
            if on { number |= 1 << column }
        }
        return number
    }
}
