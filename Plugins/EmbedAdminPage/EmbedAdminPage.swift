import Foundation
import PackagePlugin

/// Embeds the admin page's files (`Admin/UI/index.html`, `app.js`, `app.css`, `icon.svg` in
/// UnderstudyCore) as `AdminPage.html`, `.script`, `.style` and `.icon`: the page is edited, read and
/// linted as the HTML, JS and CSS it is, and served from the binary.
@main
struct EmbedAdminPage: BuildToolPlugin {
    /// Which string each file becomes.
    static let assets = [("html", "index.html"), ("script", "app.js"), ("style", "app.css"), ("icon", "icon.svg")]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // The files sit beside AdminPage.swift.
        guard
            let page = target.sourceModule?.sourceFiles.first(where: { $0.url.lastPathComponent == "AdminPage.swift" })
        else {
            Diagnostics.error("EmbedAdminPage: \(target.name) has no AdminPage.swift to embed the page beside")
            return []
        }
        let directory = page.url.deletingLastPathComponent()
        let inputs = Self.assets.map { directory.appending(path: $0.1) }
        let output = context.pluginWorkDirectoryURL.appending(path: "AdminPage+Assets.swift")
        let pairs = zip(Self.assets, inputs).map { "\($0.0.0)=\($0.1.path(percentEncoded: false))" }
        return [
            .buildCommand(
                displayName: "Embedding the admin page",
                executable: try context.tool(named: "understudy-embed").url,
                arguments: [output.path(percentEncoded: false), "AdminPage"] + pairs,
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
