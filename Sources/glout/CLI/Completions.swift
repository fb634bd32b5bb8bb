import Foundation

/// Shell completion for bash and zsh, made from ``OptionTable``: commands, each command's
/// options, file names after an option that takes a file, folders after one that takes a
/// folder, and the words of an option whose value is a choice. `glout help --completion
/// SHELL` prints them; scripts/package installs them.
enum Completions {
    enum Shell: String, CaseIterable, Sendable { case bash, zsh }

    /// What the shell may offer as an option's value.
    enum Value: Equatable {
        case file, folder, words([String]), anything
    }

    static func value(of option: OptionDeclaration) -> Value? {
        guard let grammar = option.value else { return nil }
        if grammar.contains("FILE") { return .file }
        if grammar == "DIR" { return .folder }
        let words = grammar.split(separator: "|").map(String.init)
        if words.count > 1, words.allSatisfy({ $0.allSatisfy { $0.isLetter && $0.isLowercase } }) { return .words(words) }
        return .anything
    }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        }
    }

    static var bash: String {
        let commands = CommandName.allCases.map(\.rawValue).joined(separator: " ")
        // Options with the same name take the same kind of value in every command.
        var values: [String: Value] = [:]
        for option in OptionTable.all { values[option.name] = value(of: option) }
        var cases = ""
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            let action = switch value {
            case .file: #"_glout_files -f"#
            case .folder: #"_glout_files -d"#
            case .words(let words): #"COMPREPLY=($(compgen -W ""# + words.joined(separator: " ") + #"" -- "$cur"))"#
            case .anything: "COMPREPLY=()"
            }
            cases += "        \(name)) \(action); return ;;\n"
        }
        var perCommand = ""
        for command in CommandName.allCases {
            let names = OptionTable.options(of: command).map(\.name) + ["--help"]
            perCommand += "        \(command.rawValue)) options=\"\(unique(names).joined(separator: " "))\" ;;\n"
        }
        return """
        # bash completion for glout, made by `glout help --completion bash` from its option table

        # File (-f) or folder (-d) names, one per line whatever they hold, quoted by bash.
        _glout_files() {
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen "$1" -- "$cur")
        }

        _glout() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} command= options word
            for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
                case $word in
                    \(CommandName.allCases.map(\.rawValue).joined(separator: "|"))|help) command=$word; break ;;
                esac
            done
            case $prev in
        \(cases)    esac
            if [[ -z $command && $cur != -* ]]; then
                COMPREPLY=($(compgen -W "\(commands) help --help --version" -- "$cur"))
                return
            fi
            case ${command:-run} in
        \(perCommand)        help) [[ $prev == --completion ]] && options="\(Shell.allCases.map(\.rawValue).joined(separator: " "))" ||
                    options="\(commands) --man --completion" ;;
            esac
            COMPREPLY=($(compgen -W "$options" -- "$cur"))
        }
        complete -F _glout glout

        """
    }

    static var zsh: String {
        var functions = ""
        for command in CommandName.allCases {
            var specs: [String] = []
            for option in OptionTable.options(of: command) where !specs.contains(where: { $0.hasPrefix("'*\(option.name)[") }) {
                var spec = "'*\(option.name)[\(zshText(summary(option.help)))]"
                if let value = value(of: option), let grammar = option.value {
                    let label = zshLabel(grammar)
                    let action = switch value {
                    case .file: ":\(label):_files"
                    case .folder: ":\(label):_files -/"
                    case .words(let words): ":\(label):(\(words.joined(separator: " ")))"
                    case .anything: ":\(label): "
                    }
                    spec += action
                }
                specs.append(spec + "'")
            }
            specs.append("'(- *)'{-h,--help}'[show the command'\\''s options]'")
            functions += """
            _glout_\(command.rawValue)() {
              _arguments -s \\
                \(specs.joined(separator: " \\\n    "))
            }

            """
        }
        let described = CommandName.allCases.map { "'\($0.rawValue):\(zshText(Help.page($0).summary))'" }
            + ["'help:show the options of a command'"]
        return """
        #compdef glout
        # zsh completion for glout, made by `glout help --completion zsh` from its option table

        \(functions)_glout() {
          local -a commands
          commands=(\(described.joined(separator: " ")))
          if (( CURRENT == 2 )) && [[ $words[2] != -* ]]; then
            _describe -t commands 'glout command' commands
            return
          fi
          case $words[2] in
            \(CommandName.allCases.map(\.rawValue).joined(separator: "|")))
              (( CURRENT-- )); shift words
              _glout_$words[1] ;;
            help)
              _arguments '2:command:(\(CommandName.allCases.map(\.rawValue).joined(separator: " ")) --man --completion)' ;;
            *)
              _glout_run ;;
          esac
        }

        _glout "$@"

        """
    }

    /// An option's help up to its first clause, for a one-line description.
    static func summary(_ help: String) -> String {
        var text = help.split(separator: "\n").joined(separator: " ")
        if let end = text.firstIndex(of: ";"), text.distance(from: text.startIndex, to: end) >= 12 {
            text = String(text[..<end])
        }
        guard text.count > 70 else { return text }
        var words: [Substring] = []
        for word in text.split(separator: " ") where (words + [word]).joined(separator: " ").count <= 66 { words.append(word) }
        return words.joined(separator: " ") + "..."
    }

    /// A description inside a single-quoted _arguments spec: brackets as parentheses, quotes
    /// closed and reopened around an escaped one.
    static func zshText(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "[": out += "("
            case "]": out += ")"
            case "'": out += #"'\''"#
            case "\\": out += "\\\\"
            default: out.append(character)
            }
        }
        return out
    }

    /// A value's name in a spec, where a colon would end it.
    static func zshLabel(_ text: String) -> String {
        zshText(String(text.map { $0 == ":" ? "-" : $0 }))
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }
}
