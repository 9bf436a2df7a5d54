/// One element of a document read by ``MarkupReader``: its name, attributes and child elements, with the line and
/// column where its start tag begins.
struct MarkupElement: Sendable, Equatable {
    /// The tag name.
    var name: String
    /// The attributes in document order.
    var attributes: [MarkupAttribute] = []
    /// The child elements in document order (text content is not kept).
    var children: [MarkupElement] = []
    /// 1-based line of the `<` that starts the element.
    var line: Int
    /// 1-based column (in Unicode scalars) of that `<`.
    var column: Int

    init(name: String, line: Int, column: Int) {
        self.name = name
        self.line = line
        self.column = column
    }

    /// The attribute called `name`.
    func attribute(_ name: String) -> MarkupAttribute? { attributes.first { $0.name == name } }

    /// The child elements called `name`.
    func children(named name: String) -> [MarkupElement] { children.filter { $0.name == name } }
}

/// One attribute of a ``MarkupElement``, with the position of its name.
struct MarkupAttribute: Sendable, Equatable {
    /// The attribute's name.
    var name: String
    /// Its value with entities replaced.
    var value: String
    /// 1-based line of the attribute name.
    var line: Int
    /// 1-based column of the attribute name.
    var column: Int
}
